#!/usr/bin/env python3
"""Scale-out harness: radixserve replicas behind the Shepherd Model Gateway (smg).

Starts N radixserve replicas on free ports, waits until each answers /health, starts smg in
front of them (HTTP workers `http://host:http_port`, or gRPC workers `grpc://host:grpc_port`
served by radixserve's `sglang.grpc.scheduler.SglangScheduler`) and waits until the gateway
reports every worker ready. Then one of:

  check     greedy chat (plain and streamed) and completion answers through the gateway equal
            replica 0's own answers to the same requests: text, finish_reason, prompt_tokens and
            completion_tokens; streamed chunks concatenate to the same text.
  failover  (2 replicas) a burst of concurrent chat requests through the gateway; replica 1 is
            killed with SIGKILL mid-run. At most the requests replica 1 had in flight may fail,
            requests sent after the kill must succeed, and replica 1, restarted on the same
            ports, must get traffic again within the gateway's health-check interval.
  bench     runs `loadgen --backend openai --url <gateway> --dataset generated-shared-prefix`
            with --loadgen-args, writes --output and prints the loadgen summary.

Everything started here is stopped on exit, including on Ctrl-C and on failure. Logs are in
--workdir (a new temporary directory unless given). Standard library only.

  scripts/scaleout.py check --smg "$(scripts/fetch-smg.sh)" --replicas 1 --mode http
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Gateway warnings that say nothing about the failure at hand.
HARMLESS = ("smg::posture", "libturbojpeg not found")


class Failure(Exception):
    """A check that did not hold; the message says what differed."""


def log(msg: str) -> None:
    print(f"[scaleout {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_ports(n: int) -> list[int]:
    """n distinct ports that were free a moment ago (bound to port 0 together, then closed)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((HOST, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def tail(path: Path, lines: int = 25) -> str:
    """The last lines of a log; for a gateway log, its last distinct warnings and errors first."""
    try:
        text = ANSI.sub("", path.read_text(errors="replace"))
    except OSError:
        return "(no log)"
    all_lines = text.splitlines()
    seen: dict[str, None] = {}
    for line in all_lines:
        if (" WARN " in line or " ERROR " in line) and not any(h in line for h in HARMLESS):
            key = re.sub(r"^\S+ \S+\s+|instance_id=\S+|attempt=\d+|request_id=\S+", "", line)
            seen.pop(key, None)
            seen[key] = None
    notes = list(seen)[-8:]
    head = ["warnings and errors (last distinct ones):", *notes, "last lines:"] if notes else []
    return "\n".join(head + all_lines[-lines:])


# --------------------------------------------------------------------------------------------
# HTTP


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: object  # parsed JSON, or the text when it is not JSON
    chunks: list[dict] = field(default_factory=list)  # SSE events of a streamed reply

    def text(self) -> str:
        return self.body if isinstance(self.body, str) else json.dumps(self.body)[:600]


def request(base: str, method: str, path: str, body: dict | None = None, timeout: float = 120.0,
            stream: bool = False) -> Reply:
    """One HTTP/1.1 request. A streamed reply is read as server-sent events until [DONE]."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        hdrs = {k.lower(): v for k, v in resp.getheaders()}
        if stream and resp.status == 200:
            chunks = []
            for raw in resp:
                line = raw.decode("utf-8", errors="replace").strip()
                if not line.startswith("data:"):
                    continue
                payload = line[5:].strip()
                if payload == "[DONE]":
                    break
                chunks.append(json.loads(payload))
            return Reply(resp.status, hdrs, None, chunks)
        raw = resp.read().decode("utf-8", errors="replace")
        try:
            parsed: object = json.loads(raw)
        except ValueError:
            parsed = raw
        return Reply(resp.status, hdrs, parsed)
    finally:
        conn.close()


def get_ok(base: str, path: str, timeout: float = 2.0) -> Reply | None:
    try:
        r = request(base, "GET", path, timeout=timeout)
    except (OSError, http.client.HTTPException, ValueError):
        return None
    return r if r.status == 200 else None


def metrics(base: str) -> dict[str, float]:
    """Prometheus text of a replica's /metrics, each metric summed over its labels."""
    r = get_ok(base, "/metrics", timeout=5.0)
    if r is None or not isinstance(r.body, str):
        return {}
    out: dict[str, float] = {}
    for line in r.body.splitlines():
        if not line or line.startswith("#"):
            continue
        name_labels, _, value = line.rpartition(" ")
        name = name_labels.split("{", 1)[0]
        try:
            out[name] = out.get(name, 0.0) + float(value)
        except ValueError:
            pass
    return out


# --------------------------------------------------------------------------------------------
# Processes


class Proc:
    """A child in its own session, with its output in a log file; stopped by pid."""

    def __init__(self, name: str, argv: list[str], logfile: Path, env: dict | None = None):
        self.name, self.argv, self.logfile = name, argv, logfile
        with open(logfile, "ab") as out:
            out.write(f"\n=== {time.strftime('%H:%M:%S')} {shlex.join(argv)}\n".encode())
            out.flush()
            try:
                self.popen = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                              stdin=subprocess.DEVNULL, env=env, cwd=ROOT,
                                              start_new_session=True)
            except OSError as e:
                raise Failure(f"cannot start the {name} ({argv[0]}): {e}") from e

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL to the child's process group (the group this harness created for it)."""
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self, grace: float = 5.0) -> None:
        if not self.alive():
            return
        try:
            os.killpg(self.popen.pid, signal.SIGTERM)
            self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass


class Replica:
    def __init__(self, index: int, args, workdir: Path):
        self.index, self.args = index, args
        self.http_port, self.grpc_port = free_ports(2)
        self.logfile = workdir / f"replica-{index}.log"
        self.proc: Proc | None = None

    @property
    def http(self) -> str:
        return f"http://{HOST}:{self.http_port}"

    @property
    def worker_url(self) -> str:
        if self.args.mode == "grpc":
            return f"grpc://{HOST}:{self.grpc_port}"
        return self.http

    def start(self) -> None:
        argv = [self.args.radixserve, "serve", "--model", self.args.model, "--host", HOST,
                "--http-port", str(self.http_port), "--grpc-port", str(self.grpc_port),
                "--kv-budget-mb", str(self.args.kv_budget_mb),
                *shlex.split(self.args.replica_args)]
        self.proc = Proc(f"replica {self.index}", argv, self.logfile)

    def wait_healthy(self, timeout: float) -> float:
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if not self.proc.alive():
                raise Failure(f"replica {self.index} exited with {self.proc.popen.returncode}:\n"
                              f"{tail(self.logfile)}")
            if get_ok(self.http, "/health") is not None:
                return time.monotonic() - t0
            time.sleep(0.2)
        raise Failure(f"replica {self.index} not healthy after {timeout:.0f} s:\n{tail(self.logfile)}")

    def in_flight(self) -> int:
        m = metrics(self.http)
        return int(m.get("radixserve_running_requests", 0) + m.get("radixserve_queue_length", 0))


class Gateway:
    def __init__(self, args, workdir: Path, replicas: list[Replica]):
        self.args, self.replicas = args, replicas
        self.port, self.metrics_port, self.dead_port = free_ports(3)
        self.logfile = workdir / "gateway.log"
        self.url = f"http://{HOST}:{self.port}"
        self.proc: Proc | None = None

    def argv(self) -> list[str]:
        a = self.args
        argv = [*shlex.split(a.smg),
                "--worker-urls", *[r.worker_url for r in self.replicas],
                "--policy", a.policy,
                "--host", HOST, "--port", str(self.port),
                "--prometheus-host", HOST, "--prometheus-port", str(self.metrics_port),
                # Find a dead worker in ~2 s and take a restarted one back after one good probe.
                "--health-check-interval-secs", str(a.health_check_interval),
                "--health-check-timeout-secs", str(a.health_check_interval),
                "--health-failure-threshold", "2",
                "--health-success-threshold", "1",
                "--worker-startup-check-interval", "1",
                # An open circuit (a killed worker) half-opens after this, not after 60 s.
                "--cb-timeout-duration-secs", str(max(2, 2 * a.health_check_interval)),
                "--shutdown-grace-period-secs", "1",
                "--log-level", a.gateway_log_level]
        if a.gateway_model_path:
            argv += ["--model-path", a.gateway_model_path]
        return argv + shlex.split(a.gateway_args)

    def start(self) -> None:
        env = dict(os.environ)
        # gRPC mode loads the tokenizer from the worker (GetTokenizer) once the worker's
        # model_path is neither a local tokenizer nor reachable on the Hugging Face Hub. Point
        # the hub client at a closed local port so that lookup fails at once, offline or not.
        env.setdefault("HF_ENDPOINT", f"http://{HOST}:{self.dead_port}")
        env.setdefault("HF_HUB_OFFLINE", "1")
        self.proc = Proc("gateway", self.argv(), self.logfile, env=env)

    def wait_ready(self, timeout: float) -> str:
        """Waits until /readiness counts every worker healthy (and, over gRPC, the tokenizer
        is registered) and /v1/models lists a model; returns the model id."""
        t0, last = time.monotonic(), "no answer"
        n = len(self.replicas)
        while time.monotonic() - t0 < timeout:
            if not self.proc.alive():
                raise Failure(f"gateway exited with {self.proc.popen.returncode}:\n{tail(self.logfile)}")
            try:
                r = request(self.url, "GET", "/readiness", timeout=2.0)
                last = r.text()
                body = r.body if isinstance(r.body, dict) else {}
                if r.status == 200 and body.get("healthy_workers") == n:
                    models = get_ok(self.url, "/v1/models")
                    data = models.body.get("data") if models and isinstance(models.body, dict) else None
                    if data:
                        log(f"gateway ready in {time.monotonic() - t0:.1f} s: {last}")
                        return data[0]["id"]
                    last = f"/v1/models: {models.text() if models else 'no answer'}"
            except (OSError, http.client.HTTPException, ValueError):
                pass
            time.sleep(0.25)
        raise Failure(f"gateway not ready after {timeout:.0f} s (last /readiness: {last}):\n"
                      f"{tail(self.logfile, 10)}")


class Cluster:
    def __init__(self, args):
        self.args = args
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="scaleout-")).resolve()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.replicas = [Replica(i, args, self.workdir) for i in range(args.replicas)]
        self.gateway = Gateway(args, self.workdir, self.replicas)
        self.model = ""

    def __enter__(self) -> "Cluster":
        log(f"logs in {self.workdir}")
        for r in self.replicas:
            r.start()
        for r in self.replicas:
            took = r.wait_healthy(self.args.startup_timeout)
            log(f"replica {r.index} healthy in {took:.1f} s: http {r.http_port}, grpc {r.grpc_port}")
        self.gateway.start()
        log("gateway: " + shlex.join(self.gateway.argv()))
        self.model = self.gateway.wait_ready(self.args.startup_timeout)
        direct = get_ok(self.replicas[0].http, "/v1/models")
        direct_id = direct.body["data"][0]["id"] if direct else None
        if direct_id != self.model:
            raise Failure(f"the gateway serves model {self.model!r}, replica 0 {direct_id!r}")
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        procs = [self.gateway.proc] + [r.proc for r in self.replicas]
        for p in procs:
            if p is not None:
                p.stop()


# --------------------------------------------------------------------------------------------
# check


def chat_body(model: str, content: str, max_tokens: int, **extra) -> dict:
    return {"model": model, "messages": [{"role": "user", "content": content}],
            "max_tokens": max_tokens, "temperature": 0, **extra}


def answer(reply: Reply, kind: str) -> dict:
    """text, finish_reason and token counts of a plain or streamed chat/completion reply."""
    if reply.status != 200:
        raise Failure(f"HTTP {reply.status}: {reply.text()}")
    if reply.chunks:
        text, finish, usage = [], None, None
        for c in reply.chunks:
            for ch in c.get("choices") or []:
                piece = (ch.get("delta") or {}).get("content") if kind == "chat" else ch.get("text")
                text.append(piece or "")
                finish = ch.get("finish_reason") or finish
            usage = c.get("usage") or usage
        if usage is None:
            raise Failure(f"the stream ended after {len(reply.chunks)} events with no usage chunk; "
                          f"last: {json.dumps(reply.chunks[-1])[:300]}")
        return {"text": "".join(text), "finish_reason": finish,
                "prompt_tokens": usage.get("prompt_tokens"),
                "completion_tokens": usage.get("completion_tokens"), "chunks": len(reply.chunks)}
    body = reply.body
    if not isinstance(body, dict) or not body.get("choices"):
        raise Failure(f"not a completion: {reply.text()}")
    ch = body["choices"][0]
    text = ch["message"].get("content") if kind == "chat" else ch.get("text")
    usage = body.get("usage") or {}
    return {"text": text, "finish_reason": ch.get("finish_reason"),
            "prompt_tokens": usage.get("prompt_tokens"),
            "completion_tokens": usage.get("completion_tokens")}


def compare(name: str, want: dict, got: dict) -> None:
    for key in ("text", "finish_reason", "prompt_tokens", "completion_tokens"):
        if want[key] != got[key]:
            raise Failure(f"{name}: {key} differs\n  replica 0: {want[key]!r}\n  gateway:   {got[key]!r}")


def run_check(cluster: Cluster) -> None:
    model, direct, gw = cluster.model, cluster.replicas[0].http, cluster.gateway.url
    opts = {"stream_options": {"include_usage": True}}
    cases = [
        ("chat", "/v1/chat/completions", chat_body(model, "What is the capital of France?", 32)),
        ("chat", "/v1/chat/completions", chat_body(model, "Say hi", 64)),  # ends on EOS
        # digits, punctuation and accents: the gateway tokenizes chat prompts itself over gRPC
        ("chat", "/v1/chat/completions",
         chat_body(model, "What is 12+7=? Réponds en français, s'il te plaît!", 24)),
        ("chat", "/v1/chat/completions",
         {"model": model, "temperature": 0, "max_tokens": 24, "messages": [
             {"role": "system", "content": "You answer in one short sentence."},
             {"role": "user", "content": "Name a colour."},
             {"role": "assistant", "content": "Blue."},
             {"role": "user", "content": "Another one?"}]}),
        ("completion", "/v1/completions",
         {"model": model, "prompt": "The capital of France is", "max_tokens": 24, "temperature": 0}),
        ("completion", "/v1/completions",
         {"model": model, "prompt": "Once upon a time", "max_tokens": 16, "temperature": 0,
          "ignore_eos": True}),
    ]
    for kind, path, body in cases:
        label = f"{path} {json.dumps(body.get('messages') or body.get('prompt'), ensure_ascii=False)[:60]}"
        want = answer(request(direct, "POST", path, body), kind)
        got = answer(request(gw, "POST", path, body), kind)
        compare(label, want, got)
        streamed = answer(request(gw, "POST", path, {**body, "stream": True, **opts}, stream=True), kind)
        if streamed["chunks"] < 2:
            raise Failure(f"{label}: the gateway's stream came as {streamed['chunks']} chunk(s)")
        compare(label + " (stream)", want, streamed)
        log(f"ok {label}: {want['completion_tokens']} tokens, {want['finish_reason']}, "
            f"{streamed['chunks']} chunks streamed")
    bad = request(gw, "POST", "/v1/chat/completions", chat_body("no-such-model", "hi", 4))
    if bad.status < 400 or not isinstance(bad.body, dict) or "error" not in bad.body:
        raise Failure(f"an unknown model through the gateway answered {bad.status}: {bad.text()}")
    print("scaleout checks passed")


# --------------------------------------------------------------------------------------------
# failover


@dataclass
class Outcome:
    ok: bool
    status: int
    worker: str
    detail: str
    seconds: float


def chat_once(gw: str, model: str, i: int, max_tokens: int, stream: bool = False) -> Outcome:
    """One chat request that must produce max_tokens tokens (a stream: up to its usage chunk)."""
    body = chat_body(model, f"Request {i}: tell a long story about the number {i}.", max_tokens,
                     ignore_eos=True)
    if stream:
        body.update(stream=True, stream_options={"include_usage": True})
    t0 = time.monotonic()
    try:
        r = request(gw, "POST", "/v1/chat/completions", body, timeout=180, stream=stream)
    except (OSError, http.client.HTTPException, ValueError) as e:
        return Outcome(False, 0, "", f"{type(e).__name__}: {e}", time.monotonic() - t0)
    worker = r.headers.get("x-smg-routed-worker-id", "")
    try:
        got = answer(r, "chat")
        ok = got["completion_tokens"] == max_tokens or got["finish_reason"] == "stop"
        detail = json.dumps(got)[:300]
    except Failure as e:
        ok, detail = False, str(e)
    return Outcome(ok, r.status, worker, "" if ok else detail, time.monotonic() - t0)


def burst(gw: str, model: str, first: int, n: int, max_tokens: int,
          stream: bool = False) -> tuple[list[Outcome], list[threading.Thread]]:
    results: list[Outcome] = [None] * n  # type: ignore[list-item]

    def one(k: int) -> None:
        results[k] = chat_once(gw, model, first + k, max_tokens, stream)

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(n)]
    for t in threads:
        t.start()
    return results, threads


def served_by(outcome: Outcome, replica: Replica) -> bool:
    return outcome.worker.endswith(f":{replica.http_port}") or outcome.worker.endswith(f":{replica.grpc_port}")


def run_failover(cluster: Cluster, args) -> None:
    if len(cluster.replicas) != 2:
        raise Failure("failover needs --replicas 2")
    gw, model = cluster.gateway.url, cluster.model
    r0, r1 = cluster.replicas
    n, max_tokens = args.requests, args.max_tokens

    kind = "streamed" if args.stream else "plain"
    log(f"{n} concurrent {kind} chat requests of {max_tokens} tokens through the gateway")
    t0 = time.monotonic()
    load, load_threads = burst(gw, model, 0, n, max_tokens, args.stream)
    # Kill replica 1 once it is working on requests, as late as every request has arrived at
    # a replica (or after a few seconds).
    in_flight_r1 = 0
    while True:
        f0, f1 = r0.in_flight(), r1.in_flight()
        waited = time.monotonic() - t0
        if f1 > 0 and (f0 + f1 >= n or waited > 3.0):
            in_flight_r1 = f1
            break
        if waited > 30 or all(not t.is_alive() for t in load_threads):
            raise Failure(f"replica 1 never had requests in flight (replica 0: {f0}); "
                          "is the policy sending everything to one replica? try --policy round_robin")
        time.sleep(0.05)
    r1.proc.kill()
    killed_at = time.monotonic()
    log(f"killed replica 1 (SIGKILL) {killed_at - t0:.2f} s into the run with {in_flight_r1} "
        f"requests in flight on it ({f0} on replica 0)")

    after, after_threads = burst(gw, model, 1000, args.after_requests, 16, args.stream)
    for t in load_threads + after_threads:
        t.join()
    failed = [o for o in load if not o.ok]
    log(f"load: {n - len(failed)}/{n} succeeded, {len(failed)} failed "
        f"(allowed: at most {in_flight_r1}), slowest {max(o.seconds for o in load):.1f} s")
    for o in failed:
        log(f"  failed: HTTP {o.status} {o.detail[:200]}")
    if len(failed) > in_flight_r1:
        raise Failure(f"{len(failed)} requests failed, more than the {in_flight_r1} replica 1 had in flight")
    after_failed = [o for o in after if not o.ok]
    if after_failed:
        raise Failure(f"{len(after_failed)}/{len(after)} requests sent after the kill failed: "
                      f"{after_failed[0].status} {after_failed[0].detail[:300]}")
    if any(served_by(o, r1) for o in after):
        raise Failure("a request sent after the kill was answered by the dead replica 1?")
    log(f"after the kill: {len(after)}/{len(after)} new requests succeeded")

    # Restart replica 1 on the same ports; the gateway must route to it again.
    r1.start()
    up = r1.wait_healthy(args.startup_timeout)
    log(f"replica 1 restarted, healthy in {up:.1f} s (down {time.monotonic() - killed_at:.1f} s)")
    t_up = time.monotonic()
    deadline = t_up + args.health_check_interval * 3 + args.recovery_slack
    tokens_before = metrics(r1.http).get("radixserve_generated_tokens_total", 0.0)
    rounds = 0
    while True:
        rounds += 1
        batch, threads = burst(gw, model, 2000 + 10 * rounds, 4, 8)
        for t in threads:
            t.join()
        bad = [o for o in batch if not o.ok]
        if bad:
            raise Failure(f"a request after the restart failed: {bad[0].status} {bad[0].detail[:300]}")
        tokens = metrics(r1.http).get("radixserve_generated_tokens_total", 0.0) - tokens_before
        # The gateway names the worker it routed to in x-smg-routed-worker-id; without that
        # header, replica 1's own token counter tells.
        named = any(o.worker for o in batch)
        if any(served_by(o, r1) for o in batch) or (not named and tokens >= 8):
            log(f"replica 1 serves through the gateway again {time.monotonic() - t_up:.1f} s after it "
                f"was healthy ({rounds} rounds of 4 requests; {tokens:.0f} tokens generated on it)")
            break
        if time.monotonic() > deadline:
            raise Failure(f"the gateway sent nothing to the restarted replica 1 within "
                          f"{deadline - t_up:.0f} s ({rounds} rounds of 4 requests)")
        time.sleep(0.5)
    print(f"scaleout failover passed: {len(failed)} of {n} requests failed "
          f"(replica 1 had {in_flight_r1} in flight), recovery in {time.monotonic() - t_up:.1f} s")


# --------------------------------------------------------------------------------------------
# bench


def run_bench(cluster: Cluster, args) -> None:
    output = Path(args.output or cluster.workdir / "bench.json").resolve()
    label = args.label or f"smg {args.mode} {args.policy} x{args.replicas}"
    argv = [args.loadgen, "--backend", "openai", "--url", cluster.gateway.url,
            "--dataset", "generated-shared-prefix", "--tokenizer", args.model,
            # The gateway's /v1/completions takes text prompts only (a string or strings);
            # token-id prompts are refused with 400.
            "--send-text", "--model-name", cluster.model, "--no-progress", "--label", label,
            *shlex.split(args.loadgen_args), "--output", str(output)]
    log("loadgen: " + shlex.join(argv))
    rc = subprocess.run(argv, cwd=ROOT).returncode
    if rc != 0:
        raise Failure(f"loadgen exited with {rc}")
    subprocess.run([args.loadgen, "summarize", str(output)], cwd=ROOT, check=True)
    log(f"results in {output}")


# --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None):
    common = argparse.ArgumentParser(add_help=False)
    g = common.add_argument_group("cluster")
    g.add_argument("--radixserve", default=str(ROOT / "target/ci/radixserve"), help="radixserve binary")
    g.add_argument("--model", default=str(ROOT / "models/SmolLM2-135M-Instruct.Q4_1.gguf"))
    g.add_argument("--smg", default=os.environ.get("SMG", ""),
                   help="command that runs the gateway (scripts/fetch-smg.sh prints it; env SMG)")
    g.add_argument("--replicas", type=int, choices=(1, 2), default=2)
    g.add_argument("--mode", choices=("http", "grpc"), default="http",
                   help="how the gateway talks to the replicas")
    g.add_argument("--policy", choices=("cache_aware", "round_robin"), default=None,
                   help="gateway routing policy [cache_aware; round_robin for failover]")
    g.add_argument("--kv-budget-mb", type=int, default=256)
    g.add_argument("--replica-args", default="", help="more radixserve serve flags, e.g. '--device cuda:0'")
    g.add_argument("--gateway-args", default="", help="more gateway flags")
    g.add_argument("--gateway-model-path", default="",
                   help="--model-path for the gateway (default: none; over gRPC the tokenizer then "
                        "comes from the worker's GetTokenizer)")
    g.add_argument("--gateway-log-level", default="info", choices=("debug", "info", "warn", "error"))
    g.add_argument("--health-check-interval", type=int, default=1,
                   help="gateway health-check interval in seconds (also the probe timeout)")
    g.add_argument("--startup-timeout", type=float, default=180.0, help="seconds for a replica or the gateway to come up")
    g.add_argument("--workdir", default="", help="directory for the logs [a new temporary one]")

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("check", parents=[common], help="gateway answers equal replica 0's")
    f = sub.add_parser("failover", parents=[common], help="kill and restart replica 1 under load")
    f.add_argument("--requests", type=int, default=24, help="concurrent requests when replica 1 is killed")
    f.add_argument("--max-tokens", type=int, default=64, help="tokens per request of that load")
    f.add_argument("--after-requests", type=int, default=8, help="requests sent right after the kill")
    f.add_argument("--stream", action="store_true",
                   help="stream the responses (a broken stream cannot be retried by the gateway)")
    f.add_argument("--recovery-slack", type=float, default=10.0,
                   help="seconds allowed beyond 3 health-check intervals for the restarted replica")
    b = sub.add_parser("bench", parents=[common], help="loadgen through the gateway")
    b.add_argument("--loadgen", default=str(ROOT / "target/ci/loadgen"))
    b.add_argument("--loadgen-args", default="", help="more loadgen flags, e.g. '--gsp-num-groups 2'")
    b.add_argument("--output", default="", help="loadgen JSON results [WORKDIR/bench.json]")
    b.add_argument("--label", default="", help="name of the run in the summary")
    args = p.parse_args(argv)
    if not args.smg:
        p.error("--smg is required (the command scripts/fetch-smg.sh prints)")
    if args.policy is None:
        args.policy = "round_robin" if args.command == "failover" else "cache_aware"
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    def on_term(signum, _frame):
        raise SystemExit(128 + signum)

    # Ctrl-C raises KeyboardInterrupt even when started with SIGINT ignored (a background job).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    cluster = Cluster(args)
    try:
        with cluster:
            if args.command == "check":
                run_check(cluster)
            elif args.command == "failover":
                run_failover(cluster, args)
            else:
                run_bench(cluster, args)
    except Failure as e:
        print(f"scaleout {args.command} FAILED: {e}", file=sys.stderr)
        print(f"(logs in {cluster.workdir})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("scaleout: interrupted", file=sys.stderr)
        return 130
    finally:
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
