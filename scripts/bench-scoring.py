#!/usr/bin/env python3
"""Scoring throughput of multiple-choice questions, as evaluation harnesses score them: each
of `--questions` contexts of about `--context-words` words is followed by `--choices`
endings of about `--ending-words` words, and every (context, ending) is one request that
scores the ending's tokens. Two ways of asking:

  echo   /v1/completions with echo, logprobs 1 and max_tokens 0 (lm-eval's loglikelihood):
         every prompt token is scored, so the whole prompt is computed each time
  start  /generate with return_logprob and logprob_start_len at the context's last token
         (SGLang's way): only the ending is scored, and the context comes from the prefix
         cache after its first choice
  plain  /v1/completions with max_tokens 1 and nothing scored: what computing the prompts
         costs without scoring (run it on a fresh server: it caches the contexts)

Prints choices/s and prompt tokens/s (tokens counted from the ids sent) over the wall time
of the run, and checks that both ways give each ending the same log-likelihood (the largest
difference is printed). Token ids come from the server's `/tokenize`.

  scripts/bench-scoring.py --url http://127.0.0.1:8000 --questions 32 --choices 4 \\
      --concurrency 4 [--modes start,echo | --modes plain]

Standard library only; compare runs made on the same machine in the same session.
"""

import argparse
import json
import random
import threading
import time
import urllib.request

WORDS = (
    "the a of to in and for on with at by from as is was are be this that it its which "
    "river mountain city market price energy water history science music language school "
    "people village winter summer story garden letter doctor teacher station bridge forest "
    "quickly slowly carefully often rarely always never because although while before after"
).split()


def sentence(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def post(url, body, timeout=600):
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.load(resp)


def tokenize(base, text, special=True):
    return post(base + "/tokenize", {"prompt": text, "add_special_tokens": special})["tokens"]


def score_echo(base, context, ending):
    done = post(base + "/v1/completions", {"prompt": context + ending, "echo": True,
                                           "logprobs": 1, "max_tokens": 0})
    values = done["choices"][0]["logprobs"]["token_logprobs"]
    return sum(values[len(context):])


def score_start(base, context, ending):
    done = post(base + "/generate", {"input_ids": context + ending, "return_logprob": True,
                                     "logprob_start_len": len(context) - 1,
                                     "sampling_params": {"max_new_tokens": 0}})
    triples = done["meta_info"]["input_token_logprobs"]
    return sum(t[0] for t in triples[1:])


def prefill(base, context, ending):
    post(base + "/v1/completions", {"prompt": context + ending, "max_tokens": 1})
    return 0.0


def run(base, mode, items, concurrency):
    scorer = {"echo": score_echo, "start": score_start, "plain": prefill}[mode]
    results = [None] * len(items)
    next_item = iter(range(len(items)))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                i = next(next_item, None)
            if i is None:
                return
            results[i] = scorer(base, *items[i])

    begun = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, time.perf_counter() - begun


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--questions", type=int, default=32)
    ap.add_argument("--choices", type=int, default=4)
    ap.add_argument("--context-words", type=int, default=90)
    ap.add_argument("--ending-words", type=int, default=14)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--modes", default="start,echo")
    ap.add_argument("--out")
    args = ap.parse_args()

    rng = random.Random(11)
    items = []
    for _ in range(args.questions):
        context = tokenize(args.url, " ".join(sentence(rng, 15)
                                              for _ in range(args.context_words // 15)))
        for _ in range(args.choices):
            ending = tokenize(args.url, " " + sentence(rng, args.ending_words), special=False)
            items.append((context, ending))
    tokens = sum(len(c) + len(e) for c, e in items)
    # One warm-up request (not timed), on a context of its own.
    score_echo(args.url, tokenize(args.url, "Warm up."), tokenize(args.url, " Now.", False))
    scores = {}
    # `start` first, on a cache that holds none of the contexts: `echo` never reads the
    # cache, so the order leaves it nothing to gain.
    for mode in args.modes.split(","):
        scores[mode], wall = run(args.url, mode, items, args.concurrency)
        line = {"mode": mode, "choices": len(items), "prompt_tokens": tokens,
                "wall_s": round(wall, 3), "choices_per_s": round(len(items) / wall, 2),
                "tokens_per_s": round(tokens / wall, 1)}
        print(json.dumps(line))
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(line) + "\n")
    if "echo" in scores and "start" in scores:
        worst = max(abs(a - b) for a, b in zip(scores["echo"], scores["start"]))
        print(json.dumps({"largest_loglikelihood_difference": worst}))


if __name__ == "__main__":
    main()
