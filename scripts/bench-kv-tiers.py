#!/usr/bin/env python3
"""Multi-turn chat time-to-first-token, for comparing KV cache configurations (a small KV pool
with or without a disk tier below it, a restart in the middle, another server). N conversations
run at once; each turn sends the whole conversation so far as token ids (earlier user messages
and replies, then a new user message of random token ids) and asks for exactly --output-len
tokens (greedy, EOS ignored), with a think time between turns. What a KV cache saves shows in
the time to first token of the later turns (turn >= 1), whose prompts repeat the earlier ones.

  scripts/bench-kv-tiers.py --url http://127.0.0.1:8000 --label "radixserve pool 64 MiB"
  scripts/bench-kv-tiers.py --url http://127.0.0.1:8080 --api llama --label "llama-server"

With --restart-after-turn K every conversation first runs turns 0..K-1; then --restart-cmd
runs (a shell command that stops the server, waits for it to exit and starts it again in the
background), /health is polled until it answers 200, one warm-up request runs, and every
conversation goes on from turn K. TTFT of turns >= K is then also reported on its own; the
pause is left out of the request rate.

APIs: `openai` posts to /v1/completions (stream, stream_options.include_usage; cached prompt
tokens from usage.prompt_tokens_details.cached_tokens); `llama` posts to llama-server's native
/completion (cache_prompt, return_tokens; cached prompt tokens from the last chunk's
timings.cache_n). The next turn must resend the reply's token ids: they come from the chunks'
`token_ids` (openai, servers that honour return_token_ids) or `tokens` (llama). A server that
sends no ids (radixserve's HTTP API sends text only) gets a stand-in instead: as many random ids
as it generated, the same in every run of a seed. The stand-in is not what the server cached,
so the reply's tokens miss the cache; --reply-ids standin uses stand-ins with every server, for
comparisons between servers on equal terms.

Prints one table row per run and appends a JSON line (summary, parameters and every request:
conversation, turn, prompt_tokens, cached_tokens, ttft_s, e2e_s) to --output. Concurrency
bounds the requests in flight, not the conversations. Start each run on a fresh server (or
change --seed): a second run of the same seed finds its prompts cached. Standard library only;
compare runs made on the same machine in the same session.
"""

import argparse
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ID_LOW, ID_HIGH = 1000, 40000

# Benchmarks talk to servers directly: no proxy from the environment.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class RequestFailed(Exception):
    pass


def post_stream(url, body, timeout_s):
    """Posts `body` as JSON and yields the parsed `data:` payloads of the SSE answer."""
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    deadline = time.monotonic() + timeout_s
    try:
        resp = OPENER.open(req, timeout=timeout_s)
    except urllib.error.HTTPError as e:
        raise RequestFailed(f"HTTP {e.code}: {e.read()[:500].decode(errors='replace')}") from None
    except OSError as e:
        raise RequestFailed(str(e)) from None
    with resp:
        while True:
            if time.monotonic() > deadline:
                raise RequestFailed(f"no end of stream after {timeout_s} s")
            try:
                line = resp.readline()
            except OSError as e:
                raise RequestFailed(str(e)) from None
            if not line:
                return
            line = line.decode().strip()
            if line.startswith("error:"):
                raise RequestFailed(line)
            if not line.startswith("data:"):
                continue
            data = line[len("data:"):].strip()
            if data == "[DONE]":
                return
            chunk = json.loads(data)
            if "error" in chunk:
                raise RequestFailed(json.dumps(chunk["error"])[:500])
            yield chunk


def complete_openai(args, prompt):
    body = {
        "model": args.model_name,
        "prompt": prompt,
        "max_tokens": args.output_len,
        "temperature": 0,
        "ignore_eos": True,
        "stream": True,
        "stream_options": {"include_usage": True},
        "return_token_ids": True,
    }
    start = time.monotonic()
    ttft = None
    ids, got_ids = [], False
    usage = None
    for chunk in post_stream(f"{args.url}/v1/completions", body, args.timeout_s):
        for choice in chunk.get("choices") or []:
            tokens = choice.get("token_ids")
            if tokens is not None:
                got_ids = True
                ids.extend(tokens)
            if ttft is None and (choice.get("text") or tokens):
                ttft = time.monotonic() - start
        if chunk.get("usage"):
            usage = chunk["usage"]
    e2e = time.monotonic() - start
    usage = usage or {}
    details = usage.get("prompt_tokens_details") or {}
    return {
        "ttft_s": ttft,
        "e2e_s": e2e,
        "prompt_tokens": usage.get("prompt_tokens", len(prompt)),
        "cached_tokens": details.get("cached_tokens"),
        "completion_tokens": usage.get("completion_tokens"),
        "reply_ids": ids if got_ids else None,
    }


def complete_llama(args, prompt):
    body = {
        "prompt": prompt,
        "n_predict": args.output_len,
        "temperature": 0,
        "ignore_eos": True,
        "cache_prompt": True,
        "stream": True,
        "return_tokens": True,
    }
    start = time.monotonic()
    ttft = None
    ids, got_ids = [], False
    timings = {}
    predicted = None
    for chunk in post_stream(f"{args.url}/completion", body, args.timeout_s):
        tokens = chunk.get("tokens")
        if tokens is not None:
            got_ids = True
            ids.extend(tokens)
        if ttft is None and (chunk.get("content") or tokens):
            ttft = time.monotonic() - start
        if chunk.get("timings"):
            timings = chunk["timings"]
        if "tokens_predicted" in chunk:
            predicted = chunk["tokens_predicted"]
    e2e = time.monotonic() - start
    return {
        "ttft_s": ttft,
        "e2e_s": e2e,
        "prompt_tokens": len(prompt),
        "cached_tokens": timings.get("cache_n"),
        "completion_tokens": timings.get("predicted_n", predicted),
        "reply_ids": ids if got_ids else None,
    }


def wait_healthy(url, timeout_s=120.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with OPENER.open(f"{url}/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.25)
    sys.exit(f"{url}/health did not answer 200 within {timeout_s:.0f} s")


class Conversation:
    def __init__(self, index, messages, seed, think_time_s):
        self.index = index
        self.messages = messages  # the user messages of every turn, token ids
        self.seed = seed
        self.history = []  # token ids sent and received so far
        self.think = random.Random(f"think-{seed}-{index}")
        self.think_time_s = think_time_s
        self.failed = False

    def standin(self, turn, n):
        rng = random.Random(f"reply-{self.seed}-{self.index}-{turn}")
        return [rng.randrange(ID_LOW, ID_HIGH) for _ in range(n)]


class Bench:
    def __init__(self, args):
        self.args = args
        self.complete = complete_llama if args.api == "llama" else complete_openai
        self.slots = threading.Semaphore(args.concurrency)
        self.lock = threading.Lock()
        self.records = []
        self.errors = []
        self.reply_ids = {"server": 0, "standin": 0}

    def run_turns(self, conv, turns):
        args = self.args
        for turn in turns:
            if conv.failed:
                return
            if turn > 0 and args.think_time_s > 0:
                time.sleep(conv.think.uniform(0.5, 1.5) * args.think_time_s)
            prompt = conv.history + conv.messages[turn]
            with self.slots:
                try:
                    out = self.complete(args, prompt)
                except Exception as e:  # a failed request ends its conversation
                    out = None
                    error = str(e)
            if out is not None and out["ttft_s"] is None:
                out, error = None, "the stream carried no generated token"
            if out is None:
                conv.failed = True
                with self.lock:
                    self.errors.append({"conversation": conv.index, "turn": turn, "error": error})
                print(f"conversation {conv.index} turn {turn}: {error}", file=sys.stderr)
                return
            reply = out["reply_ids"]
            if reply is None or args.reply_ids == "standin":
                n = out["completion_tokens"] or (len(reply) if reply else args.output_len)
                reply, source = conv.standin(turn, n), "standin"
            else:
                source = "server"
            conv.history = prompt + reply
            with self.lock:
                self.reply_ids[source] += 1
                self.records.append({
                    "conversation": conv.index,
                    "turn": turn,
                    "prompt_tokens": out["prompt_tokens"],
                    "cached_tokens": out["cached_tokens"],
                    "ttft_s": round(out["ttft_s"], 5),
                    "e2e_s": round(out["e2e_s"], 5),
                })

    def phase(self, convs, turns):
        threads = [threading.Thread(target=self.run_turns, args=(c, turns), daemon=True)
                   for c in convs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def warm_up(self, tag):
        rng = random.Random(f"warmup-{self.args.seed}-{tag}")
        prompt = [rng.randrange(ID_LOW, ID_HIGH) for _ in range(8)]
        try:
            self.complete(self.args, prompt)
        except RequestFailed as e:
            sys.exit(f"warm-up request failed: {e}")


def percentile(values, q):
    """Linear interpolation between the closest ranks; None for no values."""
    if not values:
        return None
    values = sorted(values)
    pos = (len(values) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def ttft_summary(records):
    ttfts = [r["ttft_s"] for r in records]
    return {f"p{q}": ms(percentile(ttfts, q)) for q in (50, 90, 99)}


def cached_fraction(records):
    fracs = [r["cached_tokens"] / r["prompt_tokens"] for r in records
             if r["cached_tokens"] is not None and r["prompt_tokens"]]
    return round(sum(fracs) / len(fracs), 4) if fracs else None


def fmt(v, width, digits=1):
    text = "-" if v is None else f"{v:.{digits}f}"
    return text.rjust(width)


def print_table(result):
    later, after = result["ttft_later_ms"], result.get("ttft_after_restart_ms")
    header = (f"{'label':<28} {'later TTFT p50/p90/p99 ms':>27} {'after restart p50/p90/p99 ms':>30}"
              f" {'turn0 p50 ms':>12} {'wall s':>8} {'req/s':>7} {'cached':>7}")
    after_text = "-" if after is None else "/".join(
        fmt(after[k], 0) for k in ("p50", "p90", "p99"))
    row = (f"{result['label']:<28} "
           f"{'/'.join(fmt(later[k], 0) for k in ('p50', 'p90', 'p99')):>27} "
           f"{after_text:>30} "
           f"{fmt(result['ttft_first_p50_ms'], 12)} {fmt(result['wall_s'], 8)} "
           f"{fmt(result['requests_per_s'], 7, 2)} {fmt(result['cached_fraction_later'], 7, 3)}")
    print(header)
    print(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True, help="server base URL, e.g. http://127.0.0.1:8000")
    ap.add_argument("--label", required=True)
    ap.add_argument("--api", choices=("openai", "llama"), default="openai")
    ap.add_argument("--model-name", default="default", help="the `model` field (openai API)")
    ap.add_argument("--conversations", type=int, default=64)
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument("--turn-len", type=int, default=128, help="tokens per user message")
    ap.add_argument("--output-len", type=int, default=32, help="tokens per reply")
    ap.add_argument("--think-time-s", type=float, default=2.0,
                    help="mean pause between turns (uniform in [0.5, 1.5] times this)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--concurrency", type=int, help="requests in flight at most (default: conversations)")
    ap.add_argument("--restart-after-turn", type=int, metavar="K",
                    help="restart the server once every conversation has finished turn K-1")
    ap.add_argument("--restart-cmd", help="shell command that restarts the server")
    ap.add_argument("--reply-ids", choices=("auto", "standin"), default="auto",
                    help="resend the reply's token ids as the server sent them (auto; stand-ins "
                         "when it sends none) or always stand-ins")
    ap.add_argument("--timeout-s", type=float, default=600, help="per request")
    ap.add_argument("--output", help="append the result as a JSON line to this file")
    args = ap.parse_args()
    args.url = args.url.rstrip("/")
    if args.concurrency is None:
        args.concurrency = args.conversations
    if min(args.conversations, args.turns, args.turn_len, args.output_len, args.concurrency) < 1:
        ap.error("--conversations, --turns, --turn-len, --output-len and --concurrency must be >= 1")
    restart_k = args.restart_after_turn
    if (restart_k is None) != (args.restart_cmd is None):
        ap.error("--restart-after-turn and --restart-cmd go together")
    if restart_k is not None and not 1 <= restart_k < args.turns:
        ap.error("--restart-after-turn must be in [1, turns - 1]")

    rng = random.Random(args.seed)
    convs = [
        Conversation(
            c,
            [[rng.randrange(ID_LOW, ID_HIGH) for _ in range(args.turn_len)]
             for _ in range(args.turns)],
            args.seed,
            args.think_time_s,
        )
        for c in range(args.conversations)
    ]
    bench = Bench(args)
    bench.warm_up("start")

    start = time.monotonic()
    restart_s = 0.0
    if restart_k is None:
        bench.phase(convs, range(args.turns))
    else:
        bench.phase(convs, range(restart_k))
        pause = time.monotonic()
        print(f"restarting after turn {restart_k - 1}: {args.restart_cmd}", file=sys.stderr)
        rc = subprocess.run(args.restart_cmd, shell=True).returncode
        if rc != 0:
            sys.exit(f"the restart command exited with status {rc}")
        wait_healthy(args.url)
        bench.warm_up("restart")
        restart_s = time.monotonic() - pause
        print(f"server back after {restart_s:.1f} s", file=sys.stderr)
        bench.phase(convs, range(restart_k, args.turns))
    wall = time.monotonic() - start

    records = sorted(bench.records, key=lambda r: (r["conversation"], r["turn"]))
    later = [r for r in records if r["turn"] >= 1]
    first = [r["ttft_s"] for r in records if r["turn"] == 0]
    result = {
        "label": args.label,
        "api": args.api,
        "url": args.url,
        "conversations": args.conversations,
        "turns": args.turns,
        "turn_len": args.turn_len,
        "output_len": args.output_len,
        "think_time_s": args.think_time_s,
        "seed": args.seed,
        "concurrency": args.concurrency,
        "restart_after_turn": restart_k,
        "restart_cmd": args.restart_cmd,
        "model_name": args.model_name,
        "timeout_s": args.timeout_s,
        "reply_ids": args.reply_ids,
        "reply_ids_used": bench.reply_ids,
        "requests_ok": len(records),
        "errors": len(bench.errors),
        "ttft_later_ms": ttft_summary(later),
        "ttft_first_p50_ms": ms(percentile(first, 50)),
        "cached_fraction_later": cached_fraction(later),
        "wall_s": round(wall, 3),
        "restart_s": round(restart_s, 3),
        "requests_per_s": round(len(records) / (wall - restart_s), 3) if wall > restart_s else None,
    }
    if restart_k is not None:
        after = [r for r in records if r["turn"] >= restart_k]
        result["ttft_after_restart_ms"] = ttft_summary(after)
        result["ttft_restart_turn_ms"] = ttft_summary([r for r in after if r["turn"] == restart_k])
        result["cached_fraction_after_restart"] = cached_fraction(after)
    result["error_list"] = bench.errors
    result["requests"] = records
    print_table(result)
    if args.output:
        with open(args.output, "a") as f:
            f.write(json.dumps(result) + "\n")
    if bench.errors:
        sys.exit(f"{len(bench.errors)} request(s) failed")


if __name__ == "__main__":
    main()
