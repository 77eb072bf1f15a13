"""The Supervised mixin on its own: a crash in a handler (or in on_start) reaches the parent as ChildFailed,
the cleanup runs, and nobody waiting on the dead actor waits out a timeout."""

from __future__ import annotations

import os
import queue
import threading
import warnings
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import pykka
import pytest

from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.supervision import ChildFailed, Supervised
from mcp_troupe.errors import ConnectionLost

from .fakes import DEFAULT_WAIT, start_probe


class Bug(Exception):
    pass


@dataclass(frozen=True)
class Work:
    reply_to: Future[str] = field(default_factory=Future)
    crash: bool = False
    hold: threading.Event | None = None


class Worker(Supervised, pykka.ThreadingActor):
    use_daemon_thread = True

    def __init__(self, parent: Any, crash_on_start: bool = False) -> None:
        super().__init__()
        self.parent, self.server, self.incarnation = parent, "srv", 7
        self.crash_on_start = crash_on_start
        self.cleaned_up: list[BaseException] = []
        self.cleanup_done = threading.Event()

    def on_start(self) -> None:
        if self.crash_on_start:
            raise Bug("on_start")

    def on_receive(self, message: Any) -> None:
        assert isinstance(message, Work)
        if message.hold is not None:
            assert message.hold.wait(DEFAULT_WAIT)
        if message.crash:
            raise Bug("in a handler")
        message.reply_to.set_result("done")

    def on_crash(self, error: BaseException) -> None:
        self.cleaned_up.append(error)
        self.cleanup_done.set()


def test_a_crash_in_a_handler_is_told_to_the_parent_with_the_incarnation_and_the_error(
    runtime: Runtime,
) -> None:
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))

    crashing = Work(crash=True)
    worker.tell(crashing)

    report = parent.expect(ChildFailed)
    assert (report.role, report.server, report.incarnation) == ("Worker", "srv", 7)
    assert isinstance(report.error, Bug)
    assert report.child.actor_urn == worker.actor_urn
    assert report.reason == "the Worker crashed: Bug('in a handler')"
    with pytest.raises(ConnectionLost, match="Worker crashed") as caught:
        crashing.reply_to.result(DEFAULT_WAIT)
    assert isinstance(caught.value.__cause__, Bug)
    assert worker.actor_stopped.wait(DEFAULT_WAIT)


def test_messages_queued_behind_the_crash_fail_at_once_and_asks_get_actor_dead(runtime: Runtime) -> None:
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))
    gate = threading.Event()
    worker.tell(Work(crash=True, hold=gate))
    queued = [Work() for _ in range(3)]
    for work in queued:
        worker.tell(work)
    asked = worker.ask(Work(), block=False)

    gate.set()

    parent.expect(ChildFailed)
    for work in queued:
        with pytest.raises(ConnectionLost):
            work.reply_to.result(DEFAULT_WAIT)
    with pytest.raises(pykka.ActorDeadError):
        asked.get(timeout=DEFAULT_WAIT)


def test_a_crash_in_on_start_is_reported_too(runtime: Runtime) -> None:
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref, crash_on_start=True))

    report = parent.expect(ChildFailed)
    assert isinstance(report.error, Bug) and str(report.error) == "on_start"
    assert worker.actor_stopped.wait(DEFAULT_WAIT)


def test_the_root_parent_may_be_a_function(runtime: Runtime) -> None:
    reports: list[ChildFailed] = []
    told = threading.Event()

    def on_failed(report: ChildFailed) -> None:
        reports.append(report)
        told.set()

    worker = runtime.track(Worker.start(on_failed))
    worker.tell(Work(crash=True))

    assert told.wait(DEFAULT_WAIT)
    assert reports[0].role == "Worker"


def test_a_parent_that_is_gone_does_not_stop_the_cleanup(runtime: Runtime) -> None:
    parent = start_probe(runtime, "parent")
    parent.ref.stop(block=True, timeout=DEFAULT_WAIT)
    worker = Worker.start(parent.ref)
    actor = worker.proxy()
    done = actor.cleanup_done.get(timeout=DEFAULT_WAIT)
    worker.tell(Work(crash=True))

    assert done.wait(DEFAULT_WAIT)
    assert worker.actor_stopped.wait(DEFAULT_WAIT)


def test_every_supervised_actor_has_the_light_fifo_mailbox(runtime: Runtime) -> None:
    # A gateway holds three actors a server: the mailbox is a queue.SimpleQueue, not pykka's queue.Queue
    # with its three Condition objects (issue 18). Messages are still handled in the order they were told.
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))
    assert type(worker.actor_inbox) is queue.SimpleQueue
    gate = threading.Event()
    worker.tell(Work(hold=gate))
    order: list[int] = []
    works = [Work() for _ in range(20)]
    for index, work in enumerate(works):
        work.reply_to.add_done_callback(lambda _, index=index: order.append(index))
        worker.tell(work)
    gate.set()
    for work in works:
        assert work.reply_to.result(DEFAULT_WAIT) == "done"
    assert order == list(range(20))


def test_an_actor_thread_is_listed_named_and_runs_without_its_starter_waiting(runtime: Runtime) -> None:
    # Started without Thread.start()'s wait for the bootstrap (issue 18), it is still a listed, named
    # thread of its own that handles its messages, and it ends when the actor stops.
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))
    work = Work()
    worker.tell(work)
    assert work.reply_to.result(DEFAULT_WAIT) == "done"
    threads = [thread for thread in threading.enumerate() if thread.name.startswith("Worker-")]
    assert len(threads) == 1 and threads[0].daemon and threads[0].is_alive()
    assert threads[0] is not threading.current_thread()
    worker.stop(timeout=DEFAULT_WAIT)
    threads[0].join(DEFAULT_WAIT)
    assert not threads[0].is_alive()


def test_a_thread_that_cannot_start_leaves_nothing_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    import _thread

    from mcp_troupe.actors import supervision

    def refuse(*args: object) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(_thread, "start_new_thread", refuse)
    thread = threading.Thread(target=lambda: None, name="never-started", daemon=True)
    if supervision._CAN_SKIP_START_WAIT:
        with pytest.raises(RuntimeError, match="can't start"):
            supervision.start_thread(thread)
    else:  # Thread.start() itself, with its own cleanup (and its own start function)
        supervision.start_thread(thread)
        thread.join(DEFAULT_WAIT)
    assert thread not in threading.enumerate() or not thread.is_alive()
    assert "never-started" not in {t.name for t in threading.enumerate()}


def test_a_thread_that_is_not_a_daemon_is_started_with_the_wait() -> None:
    # The interpreter's exit waits for non-daemon threads from the moment start() returns: such a thread
    # is started with Thread.start() itself, so it is alive (bootstrapped) when start_thread returns.
    from mcp_troupe.actors.supervision import start_thread

    gate = threading.Event()
    thread = threading.Thread(target=gate.wait, args=(DEFAULT_WAIT,), name="not-a-daemon", daemon=False)
    try:
        start_thread(thread)
        assert thread.is_alive()
    finally:
        gate.set()
        thread.join(DEFAULT_WAIT)
    assert not thread.is_alive()


def test_a_once_event_wakes_every_waiter_when_set_from_another_thread_and_stays_set() -> None:
    from mcp_troupe.actors.loop import OnceEvent

    event = OnceEvent()
    assert not event.is_set()
    assert event.wait(0.01) is False  # a timeout, not set
    woken: queue.SimpleQueue[bool] = queue.SimpleQueue()
    waiters = [threading.Thread(target=lambda: woken.put(event.wait(DEFAULT_WAIT))) for _ in range(8)]
    for waiter in waiters:
        waiter.start()
    setters = [threading.Thread(target=event.set) for _ in range(4)]  # racing sets: one wins, none raises
    for setter in setters:
        setter.start()
    for thread in waiters + setters:
        thread.join(DEFAULT_WAIT)
    assert [woken.get(timeout=DEFAULT_WAIT) for _ in waiters] == [True] * 8
    assert event.is_set() and event.wait(0) is True and event.wait() is True
    event.set()  # again: a no-op
    assert event.is_set()


def test_an_actor_s_slimmed_thread_and_stop_event_still_answer_is_alive_join_and_stop_waits(
    runtime: Runtime,
) -> None:
    # The actor's actor_stopped (ref and actor alike) and, where start_thread slims threads, its thread's
    # _started are OnceEvents (issue 18: fewer objects a server for the collector to walk).
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))
    work = Work()
    worker.tell(work)
    assert work.reply_to.result(DEFAULT_WAIT) == "done"
    assert worker.is_alive() and not worker.actor_stopped.is_set()
    [thread] = [thread for thread in threading.enumerate() if thread.name.startswith("Worker-")]
    assert thread.is_alive() and "started" in repr(thread)
    waiting = threading.Thread(target=lambda: worker.actor_stopped.wait(DEFAULT_WAIT))
    waiting.start()
    worker.stop(timeout=DEFAULT_WAIT)
    assert worker.actor_stopped.wait(DEFAULT_WAIT) and not worker.is_alive()
    waiting.join(DEFAULT_WAIT)
    assert not waiting.is_alive()
    thread.join(DEFAULT_WAIT)
    assert not thread.is_alive()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_process_forked_while_actor_threads_run_gets_a_working_threading_module(runtime: Runtime) -> None:
    # threading._after_fork() reinitialises every thread's _started in the child: a OnceEvent must take it.
    parent = start_probe(runtime, "parent")
    worker = runtime.track(Worker.start(parent.ref))
    work = Work()
    worker.tell(work)
    assert work.reply_to.result(DEFAULT_WAIT) == "done"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12: fork() with threads running
        pid = os.fork()
    if pid == 0:  # the child: its copies of the actor threads are not running; new threads work
        code = 1
        try:
            names = {thread.name for thread in threading.enumerate()}
            probe = threading.Thread(target=lambda: None)
            probe.start()
            probe.join(5)
            code = 0 if not any(name.startswith("Worker-") for name in names) and not probe.is_alive() else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    worker.stop(timeout=DEFAULT_WAIT)
