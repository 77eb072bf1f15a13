"""A faster constructor for frozen, slotted dataclasses built once per tool on a first connect (issue 18).

A frozen dataclass's generated ``__init__`` stores every field through ``object.__setattr__`` (its own
``__setattr__`` refuses), which made a 14-field :class:`~mcp_troupe.types.ToolSpec` cost about five times an
unfrozen one: on a first connect to 10,000 tools, the table's entries, the name verdicts and the policy
verdicts cost more together than the injection scan did. :func:`constructor` writes the slots through their
member descriptors instead, in code generated once per class (as :mod:`dataclasses` generates ``__init__``),
and makes the same object: the same fields, defaults and default factories, still frozen afterwards. Only
for classes without ``__post_init__`` or ``InitVar`` fields, and with every field in ``__init__``; anything
else raises ``TypeError`` when the constructor is made, not later.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["constructor"]

T = TypeVar("T")


def constructor(cls: type[T]) -> Callable[..., T]:
    """A function of ``cls``'s fields (by position or keyword, same defaults) that returns ``cls(...)``."""
    if not dataclasses.is_dataclass(cls) or not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __post_init__, which a direct constructor would skip")
    fields = dataclasses.fields(cls)
    if any(not field.init or field.kw_only is True for field in fields):
        raise TypeError(f"{cls.__name__} has fields outside __init__ or keyword-only fields")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_factory_marker": _FACTORY}
    parameters: list[str] = []
    body: list[str] = ["    self = _new(_cls)"]
    for index, field in enumerate(fields):
        name = field.name
        namespace[f"_set_{index}"] = cls.__dict__[name].__set__
        if field.default is not dataclasses.MISSING:
            namespace[f"_default_{index}"] = field.default
            parameters.append(f"{name}=_default_{index}")
        elif field.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{index}"] = field.default_factory
            parameters.append(f"{name}=_factory_marker")
            body.append(f"    if {name} is _factory_marker:\n        {name} = _factory_{index}()")
        else:
            parameters.append(name)
        body.append(f"    _set_{index}(self, {name})")
    body.append("    return self")
    source = f"def make({', '.join(parameters)}):\n" + "\n".join(body) + "\n"
    # Generated from the dataclass's own field names only, as dataclasses generates __init__.
    exec(source, namespace)
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    make.__doc__ = f"``{cls.__name__}(...)``, built directly (see mcp_troupe._frozen)."
    return make


class _FactoryMarker:
    """Stands for "not given" in a parameter whose default comes from a factory."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<default factory>"


_FACTORY = _FactoryMarker()
