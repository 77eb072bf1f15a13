"""Passes 1 and 2 of :mod:`mcp_troupe.config`: YAML text to data, and data to plain dicts and lists.

Private to :mod:`mcp_troupe.config`. The strict loader reports duplicate keys and keeps PyYAML's snippets
(which may quote a secret) out of its errors; the normalizer reports non-string keys, bounds the copy
(aliases, depth, huge integers) and records the document order that problems are sorted by.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import yaml

from mcp_troupe._config_paths import _describe, _key_text, _KeyPath, _Problem
from mcp_troupe.errors import ConfigError

# --- pass 1: YAML ---------------------------------------------------------------------------------------

_MERGE_TAG: Final = "tag:yaml.org,2002:merge"


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader that records every duplicate mapping key, with its key path and lines.

    The check walks the composed node tree before construction instead of hooking ``construct_mapping``:
    PyYAML's ``flatten_mapping`` rewrites merge sources (``<<: *base``) in place before their own
    ``construct_mapping`` runs, so a hook there would see merged keys and report overrides as duplicates.
    The walk also gives every mapping its key path, which construction does not know.
    """

    def __init__(self, stream: bytes) -> None:
        super().__init__(stream)
        self.duplicate_keys: list[_Problem] = []

    def construct_document(self, node: yaml.Node) -> Any:
        """Find duplicate keys in the document, then construct it as SafeLoader does."""
        self._find_duplicate_keys(node, (), set())
        return super().construct_document(node)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """Construct as SafeLoader does, turning its stray ValueError/KeyError into a marked YAML error.

        SafeLoader lets plain Python errors escape for scalars it cannot convert (``2024-13-45``,
        ``!!int abc``, ``!!bool maybe``); their text may quote the value, so only the tag is kept.
        """
        try:
            return super().construct_object(node, deep)
        except (ValueError, LookupError, TypeError, ArithmeticError) as exc:
            kind = str(node.tag).rsplit(":", 1)[-1]
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read this value as {kind}", node.start_mark
            ) from exc

    def _find_duplicate_keys(self, node: yaml.Node, path: _KeyPath, visited: set[int]) -> None:
        # Aliases share nodes (and may even loop back to an ancestor): visit each node once.
        if id(node) in visited:
            return
        visited.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self._find_duplicate_keys(item, (*path, index), visited)
        elif isinstance(node, yaml.MappingNode):
            first_lines: dict[object, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    # Keys merged in may be overridden here; that is what merging is for, not a duplicate.
                    self._find_duplicate_keys(value_node, path, visited)
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    continue  # SafeLoader rejects unhashable keys itself, with their line
                key = self.construct_object(key_node)
                key_part = key if isinstance(key, str) else _key_text(key)
                line = key_node.start_mark.line + 1
                if key in first_lines:
                    self.duplicate_keys.append(
                        (
                            (*path, key_part),
                            f"duplicate key on line {line} (first on line {first_lines[key]})",
                        )
                    )
                else:
                    first_lines[key] = line
                self._find_duplicate_keys(value_node, (*path, key_part), visited)


def _load_yaml(text: bytes, source: str) -> tuple[object, list[_Problem]]:
    """Parse ``text`` as one YAML document; return the data and the duplicate-key problems."""
    try:
        loader = _StrictLoader(text)  # already reads (and may reject) the first bytes
        try:
            data: object = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise ConfigError(_yaml_error_text(exc), source=source) from exc
    except RecursionError as exc:
        raise ConfigError("invalid YAML: nested too deeply", source=source) from exc
    return data, loader.duplicate_keys


def _yaml_error_text(exc: yaml.YAMLError) -> str:
    """Say where and what the YAML error is, without PyYAML's snippet of the line (it may hold a secret)."""
    if isinstance(exc, yaml.reader.ReaderError):
        # Its str() quotes the offending character, which may belong to a secret: keep to the position.
        return f"invalid YAML: {exc.reason} at character {exc.position}"
    if not isinstance(exc, yaml.MarkedYAMLError):
        return f"invalid YAML: {type(exc).__name__}"
    mark = exc.problem_mark or exc.context_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    what = exc.problem or exc.context or "syntax error"
    text = f"invalid YAML{where}: {what}"
    if exc.problem and exc.context:
        context_line = f" started on line {exc.context_mark.line + 1}" if exc.context_mark is not None else ""
        text += f" ({exc.context}{context_line})"
    return text


# --- pass 2: plain data ---------------------------------------------------------------------------------

# The sections a user may leave empty (``mcp_servers:`` with every server commented out); YAML reads them as
# null, which means "nothing here", not "wrong type".
_SECTIONS: Final[frozenset[_KeyPath]] = frozenset(
    {(), ("tools",), ("tools", "mcp"), ("tools", "mcp", "reconnect"), ("tools", "mcp_servers")}
)
# The deepest valid value is a string at tools.mcp_servers.<name>.env.<KEY> (depth 5), so any container
# deeper than that sits under an ancestor the schema already rejects; there is no need to copy it, and not
# copying it keeps recursive aliases from looping.
_MAX_DEPTH: Final = 8
# Aliases let a few lines of YAML expand to billions of values ("billion laughs"); stop copying long before.
_MAX_VALUES: Final = 100_000


# No setting takes an integer beyond float range; jsonschema would also repr it in its messages, which for
# more than 4300 digits raises ValueError. Such integers are reported here and replaced by a stand-in.
_MAX_INTEGER_BITS: Final = 1024


class _TooLarge:
    """Stands in for an integer already reported as too large; the schema pass skips it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<an integer too large to use>"


_TOO_LARGE: Final = _TooLarge()


class _Normalizer:
    """Copy arbitrary loaded data into plain dicts and lists with string keys, noting document order."""

    def __init__(self, problems: list[_Problem]) -> None:
        self.problems = problems
        self.order: dict[_KeyPath, int] = {}
        self._values = 0

    def copy(self, value: object, path: _KeyPath = ()) -> object:
        """Return a plain copy of ``value``; report non-string keys and drop them."""
        self.order.setdefault(path, len(self.order))
        self._values += 1
        if self._values == _MAX_VALUES:
            self.problems.append(((), f"the configuration holds more than {_MAX_VALUES} values"))
        if self._values >= _MAX_VALUES or len(path) > _MAX_DEPTH:
            return None
        if value is None and path in _SECTIONS:
            return {}
        if isinstance(value, int) and value.bit_length() > _MAX_INTEGER_BITS:
            self.problems.append((path, "is too large: an integer beyond 1.8e308"))
            return _TOO_LARGE
        if isinstance(value, Mapping):
            copied: dict[str, object] = {}
            for key, item in value.items():
                if isinstance(key, str):
                    copied[key] = self.copy(item, (*path, key))
                else:
                    key_path = (*path, _key_text(key))
                    self.order.setdefault(key_path, len(self.order))
                    message = f"keys must be strings, got {_describe(key)} (quote it)"
                    self.problems.append((key_path, message))
            return copied
        if isinstance(value, list | tuple):
            return [self.copy(item, (*path, index)) for index, item in enumerate(value)]
        return value
