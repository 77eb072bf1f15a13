"""The operator at a terminal as the host: ``troupe call``'s progress bar, form prompts and sampling replies.

Everything reads and writes the streams it is given (the CLI passes ``sys.stdin`` and ``sys.stderr``), so the
tests drive it with ``io.StringIO``. The handlers are sync: the host runs them in a worker thread, so a prompt
waiting for the operator never holds the I/O loop.

- :class:`ProgressBar`: ``[#####-----] 3/10 compiling`` redrawn in place (a carriage return), or one line per
  event when the stream is not a terminal; :meth:`ProgressBar.finish` ends the line.
- :class:`TerminalPrompts`: :meth:`~TerminalPrompts.elicit` asks field by field (defaults in brackets,
  options listed, each answer checked against its field and asked again until it fits) or, in URL mode,
  shows the origin and the full URL and asks whether the operator will go there *themselves* — nothing is
  ever opened; :meth:`~TerminalPrompts.sample` shows the server's messages and reads the reply the operator
  types in the model's place.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, TextIO

from mcp_troupe.host import ElicitationRequest, ProgressEvent, SamplingRequest
from mcp_troupe.protocol import callbacks as cb

__all__ = ["ProgressBar", "TerminalPrompts"]

BAR_WIDTH = 30


class ProgressBar:
    """Draw progress events on ``stream`` (thread-safe; events come from the host's drain task)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._is_drawn = False
        self._is_tty = bool(getattr(stream, "isatty", lambda: False)())

    def __call__(self, event: ProgressEvent) -> None:
        fraction = event.fraction
        if fraction is not None:
            filled = round(fraction * BAR_WIDTH)
            bar = f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {event.progress:g}/{event.total:g}"
        else:
            bar = f"[{'?' * 3}] {event.progress:g}"
        line = f"{bar} {cb.printable(event.message, 60)}" if event.message else bar
        with self._lock:
            if self._is_tty:
                self._stream.write(f"\r\x1b[2K{line}")
                self._is_drawn = True
            else:
                self._stream.write(f"progress: {line}\n")
            self._stream.flush()

    def finish(self) -> None:
        """End the bar's line (when one was drawn)."""
        with self._lock:
            if self._is_drawn:
                self._stream.write("\n")
                self._stream.flush()
                self._is_drawn = False


class TerminalPrompts:
    """Ask the operator on ``output``, read the answers from ``input``."""

    def __init__(self, input: TextIO, output: TextIO) -> None:
        self._in = input
        self._out = output
        # One question at a time: two servers asking at once must not interleave their prompts.
        self._lock = threading.Lock()

    def _ask(self, prompt: str) -> str | None:
        self._out.write(prompt)
        self._out.flush()
        line = self._in.readline()
        if line == "":
            return None  # end of input: the operator is gone
        return line.rstrip("\r\n")

    def elicit(self, request: ElicitationRequest) -> dict[str, Any]:
        """Answer an elicitation from the operator's input: accept (with content), decline or cancel."""
        with self._lock:
            self._out.write(f"\ntroupe: {request.describe()}\n")
            if request.mode == "url":
                self._out.write("  (troupe never opens it: open it yourself if you trust that origin)\n")
                answer = self._ask("will you open it? [y/N] ")
                if answer is None:
                    return {"action": "cancel"}
                return {"action": "accept" if answer.strip().lower() in ("y", "yes") else "decline"}
            answer = self._ask("fill in the form? [Y/n] ")
            if answer is None:
                return {"action": "cancel"}
            if answer.strip().lower() in ("n", "no"):
                return {"action": "decline"}
            schema = request.requested_schema or {}
            content = self._fill(schema)
            return {"action": "cancel"} if content is None else {"action": "accept", "content": content}

    def _fill(self, schema: Mapping[str, Any]) -> dict[str, Any] | None:
        properties: Mapping[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))
        content: dict[str, Any] = {}
        for name, prop in properties.items():
            while True:
                raw = self._ask(self._field_prompt(str(name), prop, name in required))
                if raw is None:
                    return None
                if raw == "":
                    if "default" in prop or name not in required:
                        break  # the default (applied by the host) or nothing
                    self._out.write("  this field is required\n")
                    continue
                value = _parse(prop, raw)
                problem = cb.field_problem(prop, value)
                if problem is None:
                    content[str(name)] = value
                    break
                self._out.write(f"  {problem}\n")
        return content

    def _field_prompt(self, name: str, prop: Mapping[str, Any], is_required: bool) -> str:
        label = cb.printable(prop.get("title") or name, 80)
        parts = [f"  {label}"]
        description = prop.get("description")
        if description:
            parts.append(f" ({cb.printable(description, 200)})")
        options = _options(prop)
        if options:
            parts.append(f" one of {', '.join(cb.printable(o, 40) for o in options)}")
            if prop.get("type") == "array":
                parts.append(" (comma-separated)")
        elif prop.get("type") == "boolean":
            parts.append(" [y/n]")
        if "default" in prop:
            parts.append(f" [{cb.printable(prop['default'], 60)}]")
        elif not is_required:
            parts.append(" (optional)")
        return "".join(parts) + ": "

    def sample(self, request: SamplingRequest) -> dict[str, Any]:
        """Show the server's prompt; the operator types the reply in the model's place."""
        with self._lock:
            self._out.write(
                f"\ntroupe: server {request.server!r} asks for a model reply"
                f" (max {request.max_tokens} tokens)\n"
            )
            if request.system_prompt:
                self._out.write(f"  system: {cb.printable(request.system_prompt, 1000)}\n")
            for message in request.messages:
                content = message.get("content")
                text = content.get("text") if isinstance(content, Mapping) else None
                shown = text if isinstance(text, str) else repr(content)
                self._out.write(f"  {cb.printable(message.get('role'), 20)}: {cb.printable(shown, 2000)}\n")
            reply = self._ask("your reply (empty to refuse): ")
        if not reply:
            raise PermissionError("the operator refused to answer")
        return {
            "role": "assistant",
            "content": {"type": "text", "text": reply},
            "model": "operator (troupe call)",
            "stopReason": "endTurn",
        }


def _options(prop: Mapping[str, Any]) -> list[str]:
    source = prop.get("items", {}) if prop.get("type") == "array" else prop
    if "enum" in source:
        return [str(option) for option in source["enum"]]
    key = "anyOf" if prop.get("type") == "array" else "oneOf"
    return [str(entry.get("const")) for entry in source.get(key, []) if isinstance(entry, Mapping)]


def _parse(prop: Mapping[str, Any], raw: str) -> Any:
    """The operator's text as the field's type (a value the field check then accepts or explains)."""
    match prop.get("type"):
        case "integer":
            try:
                return int(raw)
            except ValueError:
                return raw
        case "number":
            try:
                return float(raw)
            except ValueError:
                return raw
        case "boolean":
            lowered = raw.strip().lower()
            return {"y": True, "yes": True, "true": True, "n": False, "no": False, "false": False}.get(
                lowered, raw
            )
        case "array":
            return [item.strip() for item in raw.split(",") if item.strip()]
        case _:
            return raw
