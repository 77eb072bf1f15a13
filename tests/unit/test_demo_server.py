"""The demo server, driven as a real subprocess over raw pipes: its protocol and every misbehaviour flag."""

from __future__ import annotations

import ast
import base64
import contextlib
import datetime
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator
from tests.spec_schemas import SPEC_DIR

from mcp_troupe.demo import CRASH_EXIT_CODE, GARBAGE_LINE, START_GARBAGE_LINES, command

DEMO_DIR = Path(__file__).resolve().parents[2] / "src" / "mcp_troupe" / "demo"
STARTUP_TIMEOUT = 30.0
TIMEOUT = 5.0
BUILTIN_TOOLS = [
    "echo",
    "add",
    "now",
    "word_count",
    "sleep",
    "fail",
    "get_cancelled",
    "mutate_tools",
    "storm",
]

pytestmark = pytest.mark.timeout(20)

JsonObject = dict[str, Any]


class Demo:
    """One demo server process, with its stdout and stderr read by threads into queues."""

    def __init__(self, *flags: str) -> None:
        # A new session makes the server a process-group leader, so the fixture can kill it with its children.
        self.process = subprocess.Popen(
            command(*flags),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self._pump, args=(self.process.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    @staticmethod
    def _pump(stream: Any, into: queue.Queue[bytes | None]) -> None:
        for line in stream:
            into.put(line)
        into.put(None)

    def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.put(line.decode().rstrip("\n"))
        self.stderr_lines.put(None)

    def kill(self) -> None:
        """Kill the server's whole process group (it may have spawned a child)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    # -- writing ---------------------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: JsonObject) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def notify(self, method: str, params: JsonObject | None = None) -> None:
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request_nowait(self, method: str, params: JsonObject | None = None) -> int:
        self._next_id += 1
        message: JsonObject = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self._next_id

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    # -- reading ---------------------------------------------------------------------------------------

    def read_line(self, timeout: float = TIMEOUT) -> bytes | None:
        """Return the next stdout line (without newline), or None at EOF."""
        line = self.lines.get(timeout=timeout)
        return None if line is None else line.rstrip(b"\n")

    def read_message(self, timeout: float = TIMEOUT) -> JsonObject:
        line = self.read_line(timeout)
        assert line is not None, "the server closed stdout"
        message: JsonObject = json.loads(line)
        return message

    def response(self, request_id: int, timeout: float = TIMEOUT) -> JsonObject:
        """Return the response to ``request_id``, failing on any other message."""
        message = self.read_message(timeout)
        assert message.get("id") == request_id, message
        return message

    def request(self, method: str, params: JsonObject | None = None) -> JsonObject:
        """Send a request and return its result, failing on an error."""
        response = self.response(self.request_nowait(method, params))
        assert "result" in response, response
        result: JsonObject = response["result"]
        return result

    def error(self, method: str, params: JsonObject | None = None) -> JsonObject:
        """Send a request and return its error, failing on a result."""
        response = self.response(self.request_nowait(method, params))
        assert "error" in response, response
        error: JsonObject = response["error"]
        return error

    def call(self, name: str, arguments: JsonObject | None = None) -> JsonObject:
        return self.request("tools/call", {"name": name, "arguments": arguments or {}})

    def initialize(self, version: str = "2025-06-18") -> JsonObject:
        params: JsonObject = {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        }
        # The first answer waits for the interpreter to start and import the server: seconds on a busy
        # machine (the suite's other worker shares its cores), so it gets more than one answer's timeout.
        response = self.response(self.request_nowait("initialize", params), timeout=STARTUP_TIMEOUT)
        assert "result" in response, response
        result: JsonObject = response["result"]
        self.notify("notifications/initialized")
        return result

    def stderr_until(self, predicate: Callable[[str], bool]) -> str:
        while True:
            line = self.stderr_lines.get(timeout=TIMEOUT)
            assert line is not None, "stderr closed before the expected line"
            if predicate(line):
                return line

    def exit_code(self, timeout: float = TIMEOUT) -> int:
        return self.process.wait(timeout=timeout)


@pytest.fixture
def spawn() -> Iterator[Callable[..., Demo]]:
    started: list[Demo] = []

    def start(*flags: str) -> Demo:
        demo = Demo(*flags)
        started.append(demo)
        return demo

    try:
        yield start
    finally:
        for demo in started:
            demo.kill()


@pytest.fixture
def demo(spawn: Callable[..., Demo]) -> Demo:
    """A well-behaved demo server, initialized."""
    server = spawn()
    server.initialize()
    return server


@pytest.fixture(scope="module")
def validate() -> Callable[[str, object], None]:
    schema = json.loads((SPEC_DIR / "2025-06-18" / "schema.json").read_text())

    def check(definition: str, instance: object) -> None:
        validator = Draft7Validator(
            {"$ref": f"#/definitions/{definition}", "definitions": schema["definitions"]}
        )
        validator.validate(instance)

    return check


def text_of(result: JsonObject) -> str:
    assert len(result["content"]) == 1
    text: str = result["content"][0]["text"]
    return text


# -- handshake and protocol --------------------------------------------------------------------------------


def test_initialize_answers_a_valid_result_with_the_requested_version(
    spawn: Callable[..., Demo], validate: Callable[[str, object], None]
) -> None:
    server = spawn()

    result = server.initialize("2025-03-26")

    validate("InitializeResult", result)
    assert result["protocolVersion"] == "2025-03-26"
    assert result["serverInfo"]["name"] == "troupe-demo"
    assert result["capabilities"] == {
        "tools": {"listChanged": True},
        "resources": {"listChanged": True},
        "prompts": {"listChanged": True},
    }
    assert result["instructions"]


def test_initialize_answers_the_latest_version_for_an_unsupported_one(spawn: Callable[..., Demo]) -> None:
    server = spawn()

    assert server.initialize("1999-01-01")["protocolVersion"] == "2025-06-18"


def test_ping_answers_an_empty_result(demo: Demo) -> None:
    assert demo.request("ping") == {}


def test_unknown_method_gets_method_not_found_naming_it(demo: Demo) -> None:
    error = demo.error("frobnicate/now")

    assert error["code"] == -32601
    assert "frobnicate/now" in error["message"]


def test_unparseable_line_gets_parse_error_with_null_id_and_serving_goes_on(demo: Demo) -> None:
    demo.send_raw(b"{not json\n")

    error = demo.read_message()
    assert error["id"] is None
    assert error["error"]["code"] == -32700
    assert demo.request("ping") == {}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("tools/call", {"name": "no_such_tool", "arguments": {}}),
        ("tools/call", {"name": "echo", "arguments": {}}),
        ("tools/call", {"name": "add", "arguments": {"a": "1", "b": 2}}),
        ("tools/call", {"name": "sleep", "arguments": {"seconds": -1}}),
        ("tools/list", {"cursor": "not-a-cursor-we-gave"}),
        ("prompts/get", {"name": "review", "arguments": {}}),
        ("resources/read", {}),
    ],
)
def test_bad_params_get_invalid_params(demo: Demo, method: str, params: JsonObject) -> None:
    assert demo.error(method, params)["code"] == -32602


def test_unknown_resource_gets_resource_not_found(demo: Demo) -> None:
    assert demo.error("resources/read", {"uri": "demo://nothing"})["code"] == -32002


# -- tools -------------------------------------------------------------------------------------------------


def test_tools_list_is_valid_and_names_every_builtin_tool(
    demo: Demo, validate: Callable[[str, object], None]
) -> None:
    result = demo.request("tools/list")

    validate("ListToolsResult", result)
    assert [tool["name"] for tool in result["tools"]] == BUILTIN_TOOLS
    assert "nextCursor" not in result
    for tool in result["tools"]:
        assert tool["description"]
        assert tool["inputSchema"]["type"] == "object"
        assert "properties" in tool["inputSchema"]


@pytest.mark.parametrize(
    ("name", "arguments", "expected_text", "expected_structure"),
    [
        ("echo", {"text": "héllo, wörld"}, "héllo, wörld", None),
        ("add", {"a": 2, "b": 3}, "5", {"sum": 5}),
        (
            "word_count",
            {"text": "one two\nthree"},
            '{"words":3,"lines":2,"characters":13}',
            {"words": 3, "lines": 2, "characters": 13},
        ),
        ("sleep", {"seconds": 0.05}, "slept 0.05 s", None),
    ],
)
def test_tool_answers_its_result(
    demo: Demo,
    validate: Callable[[str, object], None],
    name: str,
    arguments: JsonObject,
    expected_text: str,
    expected_structure: JsonObject | None,
) -> None:
    result = demo.call(name, arguments)

    validate("CallToolResult", result)
    assert not result.get("isError", False)
    assert text_of(result) == expected_text
    assert result.get("structuredContent") == expected_structure


def test_now_answers_the_current_utc_time(demo: Demo) -> None:
    moment = datetime.datetime.fromisoformat(text_of(demo.call("now")))

    assert moment.utcoffset() == datetime.timedelta(0)
    assert abs(datetime.datetime.now(datetime.UTC) - moment) < datetime.timedelta(seconds=30)


def test_fail_answers_a_tool_error_with_the_message(
    demo: Demo, validate: Callable[[str, object], None]
) -> None:
    result = demo.call("fail", {"message": "boom"})

    validate("CallToolResult", result)
    assert result["isError"] is True
    assert text_of(result) == "boom"


def test_sleep_runs_concurrently_with_other_requests(demo: Demo) -> None:
    sleeping = demo.request_nowait("tools/call", {"name": "sleep", "arguments": {"seconds": 0.5}})
    ping = demo.request_nowait("ping")

    assert demo.read_message()["id"] == ping
    assert demo.read_message()["id"] == sleeping


def test_cancelled_sleep_is_never_answered_and_get_cancelled_lists_it(demo: Demo) -> None:
    cancelled = demo.request_nowait("tools/call", {"name": "sleep", "arguments": {"seconds": 0.2}})
    demo.notify("notifications/cancelled", {"requestId": cancelled, "reason": "test timeout"})
    later = demo.request_nowait("tools/call", {"name": "sleep", "arguments": {"seconds": 0.4}})

    # Had the first sleep been answered, its answer would come before the longer one's.
    assert demo.read_message()["id"] == later
    listed = json.loads(text_of(demo.call("get_cancelled")))
    assert listed == [{"requestId": cancelled, "reason": "test timeout"}]


def test_mutate_tools_adds_a_tool_then_announces_the_change(demo: Demo) -> None:
    assert text_of(demo.call("mutate_tools")) == "added tool extra_1"

    assert demo.read_message() == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    names = [tool["name"] for tool in demo.request("tools/list")["tools"]]
    assert names[-1] == "extra_1"
    assert "extra_1 called" in text_of(demo.call("extra_1"))


def test_pagination_yields_every_tool_exactly_once(
    spawn: Callable[..., Demo], validate: Callable[[str, object], None]
) -> None:
    server = spawn("--tools", "25", "--page-size", "7")
    server.initialize()
    names: list[str] = []
    params: JsonObject = {}
    pages = 0

    while True:
        result = server.request("tools/list", params)
        validate("ListToolsResult", result)
        assert len(result["tools"]) <= 7
        names += [tool["name"] for tool in result["tools"]]
        pages += 1
        if "nextCursor" not in result:
            break
        params = {"cursor": result["nextCursor"]}

    assert names == BUILTIN_TOOLS + [f"tool_{index:04d}" for index in range(25)]
    assert pages == 5  # 34 tools in pages of 7


# -- resources and prompts ---------------------------------------------------------------------------------


def test_resources_list_read_and_template(demo: Demo, validate: Callable[[str, object], None]) -> None:
    listed = demo.request("resources/list")
    validate("ListResourcesResult", listed)
    assert [r["uri"] for r in listed["resources"]] == ["demo://readme", "demo://config", "demo://logo.png"]

    readme = demo.request("resources/read", {"uri": "demo://readme"})
    validate("ReadResourceResult", readme)
    assert readme["contents"][0]["mimeType"] == "text/markdown"
    config = demo.request("resources/read", {"uri": "demo://config"})["contents"][0]
    assert json.loads(config["text"])["server"] == "troupe-demo"
    logo = demo.request("resources/read", {"uri": "demo://logo.png"})["contents"][0]
    assert base64.b64decode(logo["blob"]).startswith(b"\x89PNG\r\n\x1a\n")

    templates = demo.request("resources/templates/list")
    validate("ListResourceTemplatesResult", templates)
    assert templates["resourceTemplates"][0]["uriTemplate"] == "demo://greeting/{name}"
    greeting = demo.request("resources/read", {"uri": "demo://greeting/Ada%20L"})["contents"][0]
    assert greeting["text"] == "Hello, Ada L!"


def test_prompts_list_and_get(demo: Demo, validate: Callable[[str, object], None]) -> None:
    listed = demo.request("prompts/list")
    validate("ListPromptsResult", listed)
    assert [p["name"] for p in listed["prompts"]] == ["review", "greet"]

    review = demo.request(
        "prompts/get", {"name": "review", "arguments": {"code": "x = 1", "language": "python"}}
    )
    validate("GetPromptResult", review)
    assert [m["role"] for m in review["messages"]] == ["user", "assistant"]
    assert "x = 1" in review["messages"][0]["content"]["text"]
    greet = demo.request("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}})
    assert "Ada" in greet["messages"][0]["content"]["text"]


# -- misbehaviour flags ------------------------------------------------------------------------------------


def test_crash_after_answers_n_calls_then_dies_with_3_on_the_next(spawn: Callable[..., Demo]) -> None:
    server = spawn("--crash-after", "2")
    server.initialize()
    server.call("echo", {"text": "1"})
    server.call("echo", {"text": "2"})
    assert server.request("ping") == {}  # only tools/call requests count

    server.request_nowait("tools/call", {"name": "echo", "arguments": {"text": "3"}})

    assert server.read_line() is None
    assert server.exit_code() == CRASH_EXIT_CODE


def test_crash_on_call_dies_with_3_without_answering(spawn: Callable[..., Demo]) -> None:
    server = spawn("--crash-on-call")
    server.initialize()

    server.request_nowait("tools/call", {"name": "echo", "arguments": {"text": "hi"}})

    assert server.read_line() is None
    assert server.exit_code() == CRASH_EXIT_CODE


def test_hang_initialize_never_answers_but_serves_the_rest_and_exits_on_eof(
    spawn: Callable[..., Demo],
) -> None:
    server = spawn("--hang-initialize")
    server.request_nowait(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    )
    ping = server.request_nowait("ping")

    assert server.read_message()["id"] == ping  # the ping overtakes the unanswered initialize
    server.close_stdin()
    assert server.read_line() is None
    assert server.exit_code() == 0


def test_hang_tool_never_answers_but_its_cancellation_is_recorded(spawn: Callable[..., Demo]) -> None:
    server = spawn("--hang-tool", "echo")
    server.initialize()
    hung = server.request_nowait("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
    server.notify("notifications/cancelled", {"requestId": hung})

    listed = json.loads(text_of(server.call("get_cancelled")))

    assert listed == [{"requestId": hung, "reason": None}]
    with pytest.raises(queue.Empty):
        server.read_line(timeout=0.3)


def test_garbage_every_writes_the_garbage_line_before_every_nth_response(spawn: Callable[..., Demo]) -> None:
    server = spawn("--garbage-every", "2")
    for request_id in range(1, 5):
        server.send({"jsonrpc": "2.0", "id": request_id, "method": "ping"})

    lines = [server.read_line() for _ in range(6)]

    ok = b'{"jsonrpc":"2.0","id":%d,"result":{}}'
    assert lines == [ok % 1, GARBAGE_LINE, ok % 2, ok % 3, GARBAGE_LINE, ok % 4]


def test_garbage_on_start_writes_non_json_lines_first(spawn: Callable[..., Demo]) -> None:
    server = spawn("--garbage-on-start")

    first = [server.read_line() for _ in START_GARBAGE_LINES]

    assert first == list(START_GARBAGE_LINES)
    for line in first:
        assert line is not None and b"this is not json" in line
        with pytest.raises(ValueError):
            json.loads(line)
    assert server.initialize()["protocolVersion"] == "2025-06-18"


def test_oversized_frame_answers_the_first_call_with_one_line_of_that_size(
    spawn: Callable[..., Demo],
) -> None:
    server = spawn("--oversized-frame", "200000")
    server.initialize()
    first = server.request_nowait("tools/call", {"name": "echo", "arguments": {"text": "hi"}})

    line = server.read_line()

    assert line is not None and len(line) == 200_000
    message = json.loads(line)
    assert message["id"] == first
    assert set(message["result"]["content"][0]["text"]) == {"x"}
    assert text_of(server.call("echo", {"text": "hi"})) == "hi"  # later calls are normal


def test_list_changed_storm_follows_initialized(spawn: Callable[..., Demo]) -> None:
    server = spawn("--list-changed-storm", "50")
    server.initialize()

    notes = [server.read_message() for _ in range(50)]

    assert all(note["method"] == "notifications/tools/list_changed" for note in notes)
    assert server.request("ping") == {}


def test_protocol_version_overrides_the_negotiated_version(spawn: Callable[..., Demo]) -> None:
    server = spawn("--protocol-version", "2099-01-01")

    assert server.initialize("2025-06-18")["protocolVersion"] == "2099-01-01"


def test_stderr_lines_and_exit_at_start(spawn: Callable[..., Demo]) -> None:
    server = spawn("--stderr-lines", "3", "--exit-at-start", "7")

    assert server.exit_code() == 7
    assert server.read_line() is None
    stderr = list(iter(server.stderr_lines.get, None))
    assert stderr == [
        "demo: starting line 1",
        "demo: starting line 2",
        "demo: starting line 3",
        "demo: exiting at start with code 7",
    ]


def test_record_appends_every_received_message(spawn: Callable[..., Demo], tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    server = spawn("--record", str(record))
    server.initialize()
    server.call("echo", {"text": "hi"})

    received = [json.loads(line) for line in record.read_text().splitlines()]

    assert [message.get("method") for message in received] == [
        "initialize",
        "notifications/initialized",
        "tools/call",
    ]
    assert received[2]["params"] == {"name": "echo", "arguments": {"text": "hi"}}


def test_spawn_child_puts_a_grandchild_in_the_same_process_group(spawn: Callable[..., Demo]) -> None:
    server = spawn("--spawn-child")

    line = server.stderr_until(lambda text: text.startswith("demo: child pid "))
    child = int(line.removeprefix("demo: child pid "))

    assert os.getpgid(child) == os.getpgid(server.process.pid)
    server.close_stdin()  # the child holds none of the server's pipes, so stdout still ends
    assert server.read_line() is None
    assert server.exit_code() == 0
    os.kill(child, 0)  # and it outlives the server until someone kills the group


def test_ignore_sigterm_survives_sigterm_until_sigkill(spawn: Callable[..., Demo]) -> None:
    server = spawn("--ignore-sigterm")
    server.initialize()

    server.process.send_signal(signal.SIGTERM)
    assert server.request("ping") == {}
    server.process.kill()

    assert server.exit_code() == -signal.SIGKILL


def test_ignore_stdin_eof_keeps_running(spawn: Callable[..., Demo]) -> None:
    server = spawn("--ignore-stdin-eof")
    server.initialize()

    server.close_stdin()

    server.stderr_until(lambda text: "staying alive" in text)
    with pytest.raises(subprocess.TimeoutExpired):
        server.exit_code(timeout=0.3)


def test_stdin_eof_exits_0_promptly_even_with_calls_in_progress(spawn: Callable[..., Demo]) -> None:
    server = spawn("--hang-tool", "echo")
    server.initialize()
    server.request_nowait("tools/call", {"name": "sleep", "arguments": {"seconds": 100}})
    server.request_nowait("tools/call", {"name": "echo", "arguments": {"text": "never"}})

    server.close_stdin()

    assert server.exit_code(timeout=2.0) == 0


def test_help_documents_every_flag() -> None:
    output = subprocess.run(command("--help"), capture_output=True, text=True, timeout=TIMEOUT, check=True)

    for flag in [
        "--tools",
        "--page-size",
        "--crash-after",
        "--crash-on-call",
        "--hang-initialize",
        "--hang-tool",
        "--garbage-every",
        "--garbage-on-start",
        "--oversized-frame",
        "--list-changed-storm",
        "--protocol-version",
        "--stderr-lines",
        "--exit-at-start",
        "--record",
        "--spawn-child",
        "--ignore-sigterm",
        "--ignore-stdin-eof",
    ]:
        assert flag in output.stdout


def test_demo_imports_only_the_standard_library_and_itself() -> None:
    for path in DEMO_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.partition(".")[0]
                assert module.startswith("mcp_troupe.demo") or (
                    top in sys.stdlib_module_names or top == "__future__"
                ), f"{path.name} imports {module}"
