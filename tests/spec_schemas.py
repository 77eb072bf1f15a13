"""Where the official MCP JSON schemas live, for tests that use them as oracles.

They sit in the project's shared folder beside the checkout (``../shared/spec/<version>/schema.json``); CI
lays a copy there too. ``MCP_SPEC_DIR`` overrides the location.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import jsonschema

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = Path(os.environ.get("MCP_SPEC_DIR", REPO_ROOT.parent / "shared" / "spec"))


@functools.cache
def schema(version: str) -> dict[str, Any]:
    """The whole schema document of one revision."""
    path = SPEC_DIR / version / "schema.json"
    if not path.is_file():
        raise FileNotFoundError(f"MCP schema not found at {path}; set MCP_SPEC_DIR to the spec folder")
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def validator(version: str, definition: str) -> jsonschema.protocols.Validator:
    """A validator for one named definition of a revision's schema (draft-07 ``definitions`` or ``$defs``)."""
    document = schema(version)
    if "definitions" in document:
        definitions = document["definitions"]
        return jsonschema.Draft7Validator({"$ref": f"#/definitions/{definition}", "definitions": definitions})
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": document["$defs"]})
