"""Drives a running radixserve through the sglang scheduler gRPC service
(sglang.grpc.scheduler.SglangScheduler, as smg-grpc-proto 0.4.28 defines it) with stubs
generated from that package's .proto files, and checks every RPC a gateway uses against what
the engine itself computed. Each check reports what it received when it fails; the run goes on
to the next check and raises at the end if any failed.

Usage: sglang_conformance.py HOST:PORT EXPECTED.json
(PYTHONPATH from scripts/fetch-sglang-client.sh)
"""

import hashlib
import io
import json
import os
import queue
import re
import sys
import threading
import time
import traceback
import zipfile

import grpc
import tokenizers
from google.protobuf import json_format

import common_pb2 as common
import sglang_scheduler_pb2 as pb
import sglang_scheduler_pb2_grpc as pb_grpc

TARGET, EXPECTED = sys.argv[1], json.load(open(sys.argv[2]))
METADATA = [("authorization", f"Bearer {EXPECTED['api_key']}")] if EXPECTED.get("api_key") else []
CHANNEL = grpc.insecure_channel(TARGET, options=[("grpc.max_receive_message_length", 64 << 20)])
STUB = pb_grpc.SglangSchedulerStub(CHANNEL)
CODE = grpc.StatusCode
MIB4 = 4 << 20
_ids = iter(range(1 << 30))


def show(value, limit=3000):
    """A one-line rendering of what was received, for failure messages."""
    if isinstance(value, (list, tuple)):
        text = "[" + ", ".join(show(v, limit) for v in value) + "]"
    elif hasattr(value, "DESCRIPTOR"):
        fields = json_format.MessageToDict(value, preserving_proto_field_name=True,
                                           always_print_fields_with_no_presence=True)
        text = type(value).__name__ + json.dumps(fields, separators=(",", ":"))
    elif isinstance(value, grpc.RpcError):
        text = f"RpcError({value.code()}, {value.details()!r})"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def rpc(name, request, timeout=30):
    return getattr(STUB, name)(request, metadata=METADATA, timeout=timeout)


# ---------------------------------------------------------------- requests and streams


def sampling(max_new_tokens, temperature=0.0, **fields):
    """Sampling parameters as a gateway sends them: every field explicit."""
    params = pb.SamplingParams(
        temperature=temperature, top_p=1.0, top_k=-1, min_p=0.0, repetition_penalty=1.0,
        n=1, skip_special_tokens=True, spaces_between_special_tokens=True,
        max_new_tokens=max_new_tokens,
    )
    for key, value in fields.items():
        if isinstance(value, list):
            getattr(params, key).extend(value)
        elif isinstance(value, dict):  # a map or a Struct
            getattr(params, key).update(value)
        else:
            setattr(params, key, value)
    return params


def request(input_ids, params, stream=False, rid=None, **fields):
    fields.setdefault("logprob_start_len", -1)
    return pb.GenerateRequest(
        request_id=rid or f"conformance-{next(_ids)}",
        tokenized=pb.TokenizedInput(input_ids=input_ids), sampling_params=params,
        stream=stream, **fields,
    )


def generate(req, timeout=60):
    """All messages of one Generate call; checks the shape every call must have: every
    message echoes the request id, exactly one `complete`, and it is the last message."""
    messages = list(rpc("Generate", req, timeout))
    kinds = [m.WhichOneof("response") for m in messages]
    assert kinds.count("complete") == 1 and kinds[-1] == "complete", (
        f"{req.request_id}: expected chunks then exactly one complete, last; got {kinds}: {show(messages)}")
    assert all(m.request_id == req.request_id for m in messages), (
        f"{req.request_id}: responses carry another request_id: {show(messages)}")
    return [m.chunk for m in messages[:-1]], messages[-1].complete


def complete_of(req, timeout=60):
    return generate(req, timeout)[1]


class Reader:
    """Consumes a server stream on a thread: its messages, then END or the RpcError."""

    END = "end of stream"

    def __init__(self, call):
        self.call, self.items = call, queue.Queue()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        try:
            for message in self.call:
                self.items.put(message)
            self.items.put(Reader.END)
        except grpc.RpcError as error:
            self.items.put(error)

    def get(self, timeout):
        """The next item, or None if none came within `timeout` seconds."""
        try:
            return self.items.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None


def wait_idle(timeout=10.0, what="the engine to go idle"):
    deadline = time.monotonic() + timeout
    while True:
        got = rpc("GetLoads", pb.GetLoadsRequest())
        if all(l.num_running_reqs == 0 and l.num_waiting_reqs == 0 for l in got.loads):
            return
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}; GetLoads: {show(got)}"
        time.sleep(0.05)


def flush():
    """FlushCache when idle (a flush may be refused while requests are in flight)."""
    wait_idle()
    got = rpc("FlushCache", common.FlushCacheRequest(timeout_s=2.0))
    assert got.success is True, f"FlushCache (timeout_s 2) refused while idle: {show(got)}"


def greedy_cases():
    cases = EXPECTED["greedy"]
    assert cases, "EXPECTED has no greedy cases"
    return cases


# ---------------------------------------------------------------- info RPCs


def check_auth():
    if not METADATA:
        print("  (no api_key in EXPECTED: skipped)")
        return
    req = request(greedy_cases()[0]["input_ids"], sampling(1))
    for label, metadata in (("no key", []), ("a wrong key", [("authorization", "Bearer wrong-key")])):
        try:
            got = list(STUB.Generate(req, metadata=metadata, timeout=10))
        except grpc.RpcError as error:
            assert error.code() == CODE.UNAUTHENTICATED, f"Generate with {label}: {show(error)}"
            continue
        raise AssertionError(f"Generate with {label} was served: {show(got)}")


def check_health():
    got = rpc("HealthCheck", pb.HealthCheckRequest())
    assert got.healthy is True, f"HealthCheck: {show(got)}"


def check_model_info():
    got = rpc("GetModelInfo", pb.GetModelInfoRequest())
    assert got.is_generation, f"is_generation: {show(got)}"
    assert got.served_model_name == EXPECTED["model_id"], f"served_model_name: {show(got)}"
    assert got.max_context_length == EXPECTED["context_length"], f"max_context_length: {show(got)}"
    assert got.vocab_size == EXPECTED["vocab_size"], f"vocab_size: {show(got)}"
    assert list(got.eos_token_ids) == EXPECTED["eos_token_ids"], f"eos_token_ids: {show(got)}"
    # A gateway tries a tokenizer source as a path, then as a Hub repository id, before it
    # asks GetTokenizer: the source must be neither, or whoever owns such a repository
    # serves the gateway's tokenizer and chat template.
    for source in (got.tokenizer_path, got.model_path):
        assert not re.fullmatch(r"[\w.-]+(/[\w.-]+)?", source), f"a Hub id: {show(got)}"
        assert not source or not os.path.exists(source), f"a path: {show(got)}"
    text = got.default_sampling_params_json  # "" means no overrides (the proto's words)
    try:
        assert not text or isinstance(json.loads(text), dict)
    except (ValueError, AssertionError):
        raise AssertionError(f"default_sampling_params_json is not a JSON object: {text!r}") from None


def check_server_info():
    got = rpc("GetServerInfo", pb.GetServerInfoRequest())
    args = json_format.MessageToDict(got.server_args)
    assert args.get("served_model_name") == EXPECTED["model_id"], f"server_args: {args}"
    assert args.get("context_length") == EXPECTED["context_length"], f"server_args: {args}"
    assert args.get("dp_size") == 1, f"server_args.dp_size: {args}"
    assert args.get("is_embedding") is False, f"server_args.is_embedding: {args}"
    assert (args.get("max_total_tokens") or 0) > 0, f"server_args.max_total_tokens: {args}"
    assert got.server_type == "grpc", f"server_type: {show(got)}"
    assert got.max_total_num_tokens > 0, f"max_total_num_tokens: {show(got)}"


def check_loads():
    got = rpc("GetLoads", pb.GetLoadsRequest())
    assert got.dp_rank_count == 1, f"dp_rank_count: {show(got)}"
    assert len(got.loads) == 1 and got.loads[0].dp_rank == 0, f"loads: {show(got)}"
    load = got.loads[0]
    assert load.max_total_num_tokens > 0, f"max_total_num_tokens: {show(got)}"
    assert 0.0 <= load.token_usage <= 1.0, f"token_usage: {show(got)}"


def check_tokenizer():
    chunks = list(rpc("GetTokenizer", common.GetTokenizerRequest(), timeout=60))
    assert chunks, "GetTokenizer streamed no chunk"
    for i, chunk in enumerate(chunks):
        size = chunk.ByteSize()
        assert size <= MIB4, f"chunk {i} is {size} bytes on the wire (a default client takes 4 MiB)"
        if i < len(chunks) - 1:
            assert chunk.sha256 == "", f"chunk {i} of {len(chunks)} carries sha256 {chunk.sha256!r}"
    data = b"".join(c.data for c in chunks)
    digest = hashlib.sha256(data).hexdigest()
    assert chunks[-1].sha256 == digest, f"last sha256 {chunks[-1].sha256!r}, data hashes to {digest}"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise AssertionError(f"not a zip ({error}): {len(data)} bytes starting {data[:16]!r}")
    names = archive.namelist()
    assert len(names) == len(set(names)), f"duplicate names in the zip: {names}"
    for name in names:
        assert name and "/" not in name and "\\" not in name and ".." not in name, f"name {name!r} in {names}"
    for needed in ("tokenizer.json", "tokenizer_config.json", "generation_config.json"):
        assert needed in names, f"{needed} missing from the zip: {names}"
    assert archive.testzip() is None, f"corrupt member {archive.testzip()!r}"
    config = json.loads(archive.read("tokenizer_config.json"))
    assert config.get("chat_template"), f"tokenizer_config.json has no chat_template: keys {sorted(config)}"
    eos = json.loads(archive.read("generation_config.json")).get("eos_token_id")
    eos = [eos] if isinstance(eos, int) else eos
    assert sorted(eos or []) == sorted(EXPECTED["eos_token_ids"]), f"generation_config eos_token_id: {eos}"

    tokenizer = tokenizers.Tokenizer.from_str(archive.read("tokenizer.json").decode("utf-8"))
    for case in EXPECTED["tokenize"]:
        ids = tokenizer.encode(case["text"], add_special_tokens=False).ids
        assert ids == case["ids"], f"{case['text']!r}: tokenizer.json gives {ids}, the engine {case['ids']}"
        text = tokenizer.decode(case["ids"], skip_special_tokens=False)
        assert text == case["text"], f"decoding {case['ids']} gives {text!r}, not {case['text']!r}"
    print(f"  {len(chunks)} chunk(s), {len(data)} bytes, members {names}")


# ---------------------------------------------------------------- generation


def check_complete(case, done, what):
    """A greedy generation's complete against the engine's own output for the case."""
    out = case["output_ids"]
    assert list(done.output_ids) == out, f"output_ids (the full output), expected {out}; {what}"
    assert done.finish_reason == case["finish_reason"], f"finish_reason, expected {case['finish_reason']}; {what}"
    assert done.prompt_tokens == len(case["input_ids"]), f"prompt_tokens; {what}"
    assert done.completion_tokens == len(out), f"completion_tokens; {what}"
    assert done.index == 0, f"index; {what}"
    assert done.spec_accepted_tokens <= done.spec_draft_tokens, f"spec tokens; {what}"


def check_spec_counts(case, done, what):
    """Alone, a request drafts and accepts what it did when the engine ran it directly."""
    spec = [done.spec_draft_tokens, done.spec_accepted_tokens]
    assert spec == case["spec"], f"spec draft/accepted {spec}, expected {case['spec']}; {what}"


def check_generate():
    for case in greedy_cases():
        req = request(case["input_ids"], sampling(case["max_new_tokens"]), stream=False)
        done = complete_of(req)
        check_complete(case, done, f"non-streaming {req.request_id}: {show(done)}")
        check_spec_counts(case, done, f"non-streaming {req.request_id}")


def check_stream(case, chunks, done, req):
    """A streamed greedy generation against its expected output."""
    what = f"streaming {req.request_id}: chunks {show(chunks)} complete {show(done)}"
    streamed, previous = [], 0
    for chunk in chunks:
        streamed += chunk.token_ids
        assert chunk.completion_tokens >= previous, f"completion_tokens went down; {what}"
        assert chunk.completion_tokens == len(streamed), f"completion_tokens is not cumulative; {what}"
        assert chunk.prompt_tokens == len(case["input_ids"]), f"chunk prompt_tokens; {what}"
        assert chunk.index == 0, f"chunk index; {what}"
        # The gateway's /generate reports each chunk's cached_tokens as it comes.
        assert chunk.cached_tokens == done.cached_tokens, f"chunk cached_tokens; {what}"
        previous = chunk.completion_tokens
    assert streamed == case["output_ids"], f"streamed {streamed}, expected {case['output_ids']}; {what}"
    check_complete(case, done, what)


def check_generate_stream():
    for case in greedy_cases():
        req = request(case["input_ids"], sampling(case["max_new_tokens"]), stream=True)
        chunks, done = generate(req)
        check_stream(case, chunks, done, req)
        check_spec_counts(case, done, f"streaming {req.request_id}")


def check_position_logprobs(token_id, logprob, top, what):
    assert logprob <= 1e-6, f"logprob {logprob} > 0; {what}"
    values, ids = list(top.values), list(top.token_ids)
    assert len(values) == 3 and len(ids) == 3, f"top_logprobs has not 3 entries: {show(top)}; {what}"
    assert all(a >= b for a, b in zip(values, values[1:])), f"top_logprobs not descending {values}; {what}"
    assert abs(logprob - values[0]) <= 1e-4, f"greedy token's logprob {logprob} != top {values[0]}; {what}"
    tied = [i for i, v in zip(ids, values) if abs(v - values[0]) <= 1e-6]
    assert token_id == ids[0] or token_id in tied, f"greedy token {token_id} is not the top {ids}; {what}"


def check_logprobs():
    case = greedy_cases()[0]
    req = request(case["input_ids"], sampling(case["max_new_tokens"]), stream=True,
                  return_logprob=True, top_logprobs_num=3)
    chunks, done = generate(req)
    check_stream(case, chunks, done, req)
    rows = []  # (token id, logprob, top) over the stream
    for chunk in chunks:
        what = f"chunk {show(chunk)}"
        if not chunk.token_ids:
            continue
        assert chunk.HasField("output_logprobs"), f"a chunk with tokens has no output_logprobs; {what}"
        lp = chunk.output_logprobs
        assert list(lp.token_ids) == list(chunk.token_ids), f"output_logprobs.token_ids; {what}"
        assert len(lp.token_logprobs) == len(chunk.token_ids), f"token_logprobs length; {what}"
        assert len(lp.top_logprobs) == len(chunk.token_ids), f"top_logprobs length; {what}"
        for row in zip(lp.token_ids, lp.token_logprobs, lp.top_logprobs):
            check_position_logprobs(*row, what)
            rows.append(row)
    what = f"complete {show(done)}"
    assert [r[0] for r in rows] == case["output_ids"], f"the chunks' logprobs cover the output; {what}"
    # Streamed, the chunks carry them: the complete does not repeat them (all of a long
    # output's would outgrow what a client decodes in one message; the gateway reads chunks).
    assert not done.HasField("output_logprobs"), f"a streamed complete repeats output_logprobs; {what}"

    # Not streamed: the complete alone carries them.
    req = request(case["input_ids"], sampling(case["max_new_tokens"]), return_logprob=True, top_logprobs_num=3)
    done = complete_of(req)
    lp, what = done.output_logprobs, f"non-streaming complete {show(done)}"
    assert list(lp.token_ids) == case["output_ids"], f"output_logprobs.token_ids; {what}"
    assert len(lp.token_logprobs) == len(lp.top_logprobs) == len(case["output_ids"]), f"lengths; {what}"
    for row in zip(lp.token_ids, lp.token_logprobs, lp.top_logprobs):
        check_position_logprobs(*row, what)


def check_input_logprobs():
    """Input (prompt) logprobs: aligned with the prompt from logprob_start_len, the first
    null as SGLang sends it; a generated token, fed back in the prompt, scores the logprob
    it was sampled with; streamed, the first chunk alone carries them; max_new_tokens 0
    scores the prompt alone."""
    case = greedy_cases()[0]
    prompt, out = case["input_ids"], case["output_ids"]
    sampled = complete_of(request(prompt, sampling(len(out)), return_logprob=True,
                                  top_logprobs_num=3)).output_logprobs
    whole, start = prompt + out, len(prompt) - 1
    for stream in (False, True):
        req = request(whole, sampling(0), stream=stream, return_logprob=True, top_logprobs_num=3,
                      logprob_start_len=start)
        chunks, done = generate(req)
        what = f"{'streamed' if stream else 'complete'} {show(chunks)} {show(done)}"
        if stream:
            assert chunks and chunks[0].HasField("input_logprobs"), f"no input_logprobs first; {what}"
            assert not any(c.HasField("input_logprobs") for c in chunks[1:]), f"sent twice; {what}"
            lp = chunks[0].input_logprobs
        else:
            lp = done.input_logprobs
        assert list(lp.token_ids) == whole[start:], f"input_logprobs.token_ids; {what}"
        assert len(lp.token_logprobs) == len(lp.top_logprobs) == len(whole) - start, f"lengths; {what}"
        assert not lp.token_logprobs[0].HasField("value"), f"the first is not null; {what}"
        assert len(lp.top_logprobs[0].values) == 0, f"the first has top logprobs; {what}"
        for i, got in enumerate(lp.token_logprobs[1:]):
            want = sampled.token_logprobs[i]
            assert abs(got.value - want) <= 1e-3, f"token {i}: scored {got.value}, sampled {want}; {what}"
            assert list(lp.top_logprobs[i + 1].token_ids) == list(sampled.top_logprobs[i].token_ids), (
                f"token {i}: top ids; {what}")
        assert list(done.output_ids) == [] and done.completion_tokens == 0, f"generated; {what}"
    # From the start: every prompt token but the first scored.
    lp = complete_of(request(prompt, sampling(2), return_logprob=True, logprob_start_len=0)).input_logprobs
    assert len(lp.token_logprobs) == len(prompt), f"lengths {show(lp)}"
    assert all(v.HasField("value") and v.value <= 1e-6 for v in lp.token_logprobs[1:]), f"values {show(lp)}"
    cases = [
        ("logprob_start_len past the prompt", request(prompt, sampling(2), return_logprob=True,
                                                      logprob_start_len=len(prompt)), "logprob_start_len"),
        ("max_new_tokens 0 without input logprobs", request(prompt, sampling(0)), "max_new_tokens"),
    ]
    expect_invalid(lambda req: list(rpc("Generate", req, timeout=30)), cases, "bad input logprobs")


def stop_case():
    """A greedy case that ran to its length limit, and a position p >= 2 (where possible)
    whose token does not occur earlier in the output."""
    for case in greedy_cases():
        out = case["output_ids"]
        if case["finish_reason"] == "length" and len(out) >= 4:
            for p in list(range(2, len(out) - 1)) + [1, 0]:
                if out[p] not in out[:p]:
                    return case, p
    raise AssertionError(f"no greedy case ran to length with >= 4 tokens: {greedy_cases()}")


def check_stop_and_limits():
    case, p = stop_case()
    ids, out, limit = case["input_ids"], case["output_ids"], case["max_new_tokens"]
    token = out[p]

    done = complete_of(request(ids, sampling(limit, stop_token_ids=[token])))
    what = f"stop_token_ids=[{token}] (greedy output {out}): {show(done)}"
    got = list(done.output_ids)
    assert got in (out[:p + 1], out[:p]), f"output does not end at the stop token; {what}"
    assert done.finish_reason == "stop", f"finish_reason; {what}"
    assert done.WhichOneof("matched_stop") == "matched_token_id", f"no matched_token_id; {what}"
    assert done.matched_token_id == token, f"matched_token_id; {what}"
    assert done.completion_tokens == len(got), f"completion_tokens; {what}"
    print(f"  the matched stop token is {'included in' if got == out[:p + 1] else 'trimmed from'} output_ids")

    for n in (1, 3):
        done = complete_of(request(ids, sampling(n)))
        assert list(done.output_ids) == out[:n], f"max_new_tokens={n}, expected {out[:n]}: {show(done)}"
        assert done.finish_reason == "length", f"max_new_tokens={n}: {show(done)}"

    # min_new_tokens: the stop token at position p no longer ends the output before then.
    least = min(p + 3, limit)
    done = complete_of(request(ids, sampling(limit, stop_token_ids=[token], min_new_tokens=least)))
    what = f"min_new_tokens={least} with stop_token_ids=[{token}] at position {p}: {show(done)}"
    assert len(done.output_ids) >= least, f"stopped too early; {what}"
    assert token not in list(done.output_ids)[:least], f"a stop token within the minimum; {what}"

    # logit_bias (keys are token ids): banning the first greedy token changes the first output.
    done = complete_of(request(ids, sampling(2, logit_bias={str(out[0]): -100.0})))
    assert done.output_ids and done.output_ids[0] != out[0], f"logit_bias -100 on {out[0]} ignored: {show(done)}"

    eos_case = next((c for c in greedy_cases() if c["finish_reason"] == "stop"), None)
    if eos_case is None:  # ignore_eos on a run that never met EOS changes nothing
        done = complete_of(request(ids, sampling(limit, ignore_eos=True)))
        assert list(done.output_ids) == out, f"ignore_eos changed a length-limited output {out}: {show(done)}"
    else:
        n = len(eos_case["output_ids"]) + 3
        done = complete_of(request(eos_case["input_ids"], sampling(n, ignore_eos=True)))
        what = f"ignore_eos on {eos_case['output_ids']} (which stopped at EOS): {show(done)}"
        assert len(done.output_ids) == n and done.finish_reason == "length", f"did not run to max_new_tokens; {what}"


def check_sampling():
    n = 8
    params = sampling(n, temperature=0.8, top_p=0.9, top_k=20, ignore_eos=True)
    done = complete_of(request(greedy_cases()[0]["input_ids"], params))
    what = f"temperature 0.8 top_p 0.9 top_k 20: {show(done)}"
    assert len(done.output_ids) == n and done.completion_tokens == n, f"expected {n} tokens; {what}"
    assert all(t < EXPECTED["vocab_size"] for t in done.output_ids), f"a token outside the vocabulary; {what}"
    assert done.finish_reason == "length", f"finish_reason; {what}"


def expect_invalid(call, cases, what):
    """Each `(label, request, field)` refused by `call` with INVALID_ARGUMENT naming `field`."""
    failures = []
    for label, req, field in cases:
        try:
            got = call(req)
            failures.append(f"{label}: served instead of INVALID_ARGUMENT: {show(got, 500)}")
        except grpc.RpcError as error:
            details = error.details() or ""
            if error.code() != CODE.INVALID_ARGUMENT:
                failures.append(f"{label}: {show(error)} (expected INVALID_ARGUMENT)")
            elif not re.search(rf"\b{re.escape(field)}\b", details):
                failures.append(f"{label}: details {details!r} do not name {field!r}")
    assert not failures, f"{what} not refused as expected:\n    " + "\n    ".join(failures)


def check_bad_input():
    ids = greedy_cases()[0]["input_ids"]
    vocab, context = EXPECTED["vocab_size"], EXPECTED["context_length"]
    cases = [
        ("empty input_ids", request([], sampling(4)), "input_ids"),
        ("a token id == vocab_size", request(ids + [vocab], sampling(4)), "input_ids"),
        ("n = 17", request(ids, sampling(4, n=17)), "n"),
        ("logit_bias key not a token id", request(ids, sampling(4, logit_bias={"x": 1.0})), "logit_bias"),
        ("min_new_tokens > max_new_tokens", request(ids, sampling(4, min_new_tokens=5)), "min_new_tokens"),
        ("structural_tag that is no tag", request(ids, sampling(4, structural_tag="{}")), "structural_tag"),
        ("custom_params", request(ids, sampling(4, custom_params={"x": 1})), "custom_params"),
        ("custom_logit_processor", request(ids, sampling(4), custom_logit_processor="x"), "custom_logit_processor"),
        ("input_embeds", request(ids, sampling(4), input_embeds=[0.5, 0.25]), "input_embeds"),
        ("mm_inputs", request(ids, sampling(4), mm_inputs=pb.MultimodalInputs(image_data=[b"\x89PNG"])), "mm_inputs"),
        ("lora_id", request(ids, sampling(4), lora_id="adapter"), "lora_id"),
        ("disaggregated_params", request(ids, sampling(4), disaggregated_params=pb.DisaggregatedParams(
            bootstrap_host="localhost", bootstrap_port=1, bootstrap_room=1)), "disaggregated_params"),
        ("return_hidden_states", request(ids, sampling(4), return_hidden_states=True), "return_hidden_states"),
        ("temperature -1", request(ids, sampling(4, temperature=-1.0)), "temperature"),
        ("top_p 1.5", request(ids, sampling(4, top_p=1.5)), "top_p"),
        ("max_new_tokens > context", request(ids, sampling(context + 1)), "max_new_tokens"),
        ("no tokenized", pb.GenerateRequest(request_id="conformance-untokenized", sampling_params=sampling(4)),
         "tokenized"),
    ]
    expect_invalid(lambda req: list(rpc("Generate", req, timeout=30)), cases, "bad inputs")


# ---------------------------------------------------------------- embeddings


def check_embed():
    """Embed answers each input's embedding as the engine computes it (the last token's
    hidden state, L2-normalized), and refuses what it cannot honour by name."""
    for case in EXPECTED["embed"]:
        got = rpc("Embed", pb.EmbedRequest(request_id=f"conformance-{next(_ids)}",
                                            tokenized=pb.TokenizedInput(input_ids=case["input_ids"])))
        what = f"Embed of {len(case['input_ids'])} tokens: {show(got, 300)}"
        want = case["embedding"]
        assert got.embedding_dim == len(want) == EXPECTED["hidden_size"], f"embedding_dim; {what}"
        assert got.prompt_tokens == len(case["input_ids"]), f"prompt_tokens; {what}"
        # Floats on the wire both ways: the same f32 values.
        assert list(got.embedding) == want, f"embedding differs from the engine's; {what}"
    ids = EXPECTED["embed"][0]["input_ids"]
    cases = [
        ("empty input", pb.EmbedRequest(request_id="conformance-embed-empty",
                                        tokenized=pb.TokenizedInput(input_ids=[])), "input_ids"),
        ("no tokenized", pb.EmbedRequest(request_id="conformance-embed-none"), "tokenized"),
        ("cross encoder", pb.EmbedRequest(request_id="conformance-embed-cross", is_cross_encoder=True,
                                          tokenized=pb.TokenizedInput(input_ids=ids)), "is_cross_encoder"),
        ("token_type_ids", pb.EmbedRequest(request_id="conformance-embed-types", token_type_ids=[0] * len(ids),
                                           tokenized=pb.TokenizedInput(input_ids=ids)), "token_type_ids"),
        ("a token id == vocab_size", pb.EmbedRequest(
            request_id="conformance-embed-vocab",
            tokenized=pb.TokenizedInput(input_ids=ids + [EXPECTED["vocab_size"]])), "vocabulary"),
    ]
    expect_invalid(lambda req: rpc("Embed", req), cases, "bad embedding inputs")


# ---------------------------------------------------------------- cache, abort, cancellation


def long_request(max_new_tokens=4, tokens=None):
    return request(tokens or EXPECTED["long_input_ids"], sampling(max_new_tokens))


def check_cached_tokens():
    long_ids = EXPECTED["long_input_ids"]
    flush()
    first = complete_of(long_request())
    wait_idle()
    second = complete_of(long_request())
    what = f"{len(long_ids)} prompt tokens sent twice: first {show(first)} second {show(second)}"
    assert second.cached_tokens >= len(long_ids) - 1, f"second cached_tokens too low; {what}"
    assert first.cached_tokens < second.cached_tokens, f"first not below second; {what}"
    assert second.prompt_tokens == len(long_ids), f"prompt_tokens; {what}"


def check_flush_cache():
    wait_idle()
    got = rpc("FlushCache", common.FlushCacheRequest())
    assert got.success is True, f"FlushCache while idle: {show(got)}"
    done = complete_of(long_request(1))
    assert done.cached_tokens == 0, f"cached_tokens after FlushCache: {show(done)}"


def start_long_stream(rid, max_new_tokens):
    req = request(greedy_cases()[0]["input_ids"], sampling(max_new_tokens, ignore_eos=True), stream=True, rid=rid)
    reader = Reader(rpc("Generate", req, timeout=120))
    first = reader.get(30)
    assert isinstance(first, pb.GenerateResponse) and first.WhichOneof("response") == "chunk", (
        f"{rid}: expected a first chunk within 30 s: {show(first)}")
    return reader


def longest_output():
    """The most tokens the first greedy case may generate (a long stream still runs when
    the checks below act on it, even where repeated text drafts several tokens a step)."""
    return min(1000, EXPECTED["context_length"] - len(greedy_cases()[0]["input_ids"]) - 1)


def check_abort():
    longest = longest_output()
    reader = start_long_stream("abort-me", longest)
    got = rpc("Abort", pb.AbortRequest(request_id="abort-me", reason="conformance"))
    assert got.success is True, f"Abort of a running request: {show(got)}"
    deadline, seen = time.monotonic() + 10, []
    item = reader.get(10)
    while isinstance(item, pb.GenerateResponse) and item.WhichOneof("response") == "chunk":
        seen.append(item)
        item = reader.get(deadline - time.monotonic())
    if item is None:
        reader.call.cancel()
    if isinstance(item, grpc.RpcError):
        assert item.code() in (CODE.CANCELLED, CODE.ABORTED), f"the aborted stream failed: {show(item)}"
        print(f"  the aborted stream ended with status {item.code().name}")
    else:
        assert item is not None, f"the aborted stream did not end within 10 s; chunks since {show(seen)}"
        assert item is not Reader.END, f"the aborted stream ended without a complete; chunks since {show(seen)}"
        done = item.complete
        assert done.finish_reason == "abort" and len(done.output_ids) < longest, f"after the abort: {show(done)}"
        end = reader.get(deadline - time.monotonic())
        assert end is Reader.END, f"after the abort's complete, expected the end of the stream: {show(end)}"
        print("  the aborted stream ended with a complete, finish_reason abort")
    wait_idle(what="the aborted request to leave")
    got = rpc("Abort", pb.AbortRequest(request_id="conformance-no-such-request", reason="conformance"))
    assert got.success is False, f"Abort of an unknown request id: {show(got)}"


def check_dropped_stream():
    # Long enough that, if dropping the stream does not free the request, running to the end
    # takes far longer than the wait for idle below (on a CPU).
    longest = longest_output()
    reader = start_long_stream(f"conformance-dropped-{next(_ids)}", longest)
    reader.call.cancel()
    wait_idle(what="a dropped stream's request to be freed")
    end = reader.get(5)
    while isinstance(end, pb.GenerateResponse):  # chunks that came before the cancel
        end = reader.get(5)
    assert isinstance(end, grpc.RpcError) and end.code() == CODE.CANCELLED, f"after cancel(): {show(end)}"
    check_health()


# ---------------------------------------------------------------- KV events


class KvStream:
    """A SubscribeKvEvents stream: its event batches (load-only records are checked and set
    aside), each numbered one past the previous."""

    def __init__(self, start):
        self.start, self.batches = start, []
        self.reader = Reader(rpc("SubscribeKvEvents", common.SubscribeKvEventsRequest(
            start_sequence_number=start), timeout=300))

    def next_batch(self, timeout=10.0, what="a batch"):
        deadline = time.monotonic() + timeout
        while True:
            item = self.reader.get(deadline - time.monotonic())
            assert item is not None, (f"subscribed at {self.start}: waited {timeout:.1f}s for {what}; "
                                      f"batches so far {show(self.batches)}")
            assert isinstance(item, common.KvEventBatch), f"the KV event stream ended: {show(item)}"
            if item.HasField("load") and item.load.load_only:
                assert not item.events, f"a load_only batch carries events: {show(item)}"
                if self.batches:
                    assert item.sequence_number == self.batches[-1].sequence_number, (
                        f"a load_only batch does not repeat the last sequence: {show(item)}")
                continue
            if self.batches:
                assert item.sequence_number == self.batches[-1].sequence_number + 1, (
                    f"batch {show(item)} does not follow {self.batches[-1].sequence_number}")
            self.batches.append(item)
            return item

    def snapshot(self):
        """The snapshot batches a subscription begins with; their Stored blocks' hashes."""
        first = self.next_batch(what="the snapshot")
        assert first.events and first.events[0].WhichOneof("data") == "cleared", (
            f"the first batch (start {self.start}) does not begin with cleared: {show(first)}")
        batches = [first]
        if first.HasField("snapshot"):
            assert first.snapshot.index == 0, f"first snapshot chunk: {show(first)}"
            while len(batches) < first.snapshot.count:
                batches.append(self.next_batch())
                assert batches[-1].snapshot.index == len(batches) - 1, f"snapshot chunk: {show(batches[-1])}"
        return {b.block_hash for batch in batches for e in batch.events
                if e.WhichOneof("data") == "stored" for b in e.stored.blocks}

    def events_until(self, done, what, timeout=10.0):
        """Events from new batches until done(events) holds."""
        deadline, events = time.monotonic() + timeout, []
        while not done(events):
            left = deadline - time.monotonic()
            assert left > 0, f"waited {timeout}s for {what}; events received {show(events)}"
            events += self.next_batch(left, f"{what}; events so far {show(events)}").events
        return events

    def close(self):
        self.reader.call.cancel()


def stored_chain(kv, tokens, what):
    """Generates `tokens` (max_new_tokens 1) and checks the Stored events that follow: 16-token
    blocks of prompt+output in order, each the child of the one before, the first a root."""
    size, long_ids = EXPECTED["block_size"], EXPECTED["long_input_ids"]
    need = max(1, len(long_ids) // size - 1)
    full = tokens + list(complete_of(long_request(1, tokens)).output_ids)

    def stored(events):
        return [e.stored for e in events if e.WhichOneof("data") == "stored"]

    events = kv.events_until(lambda ev: sum(len(s.blocks) for s in stored(ev)) >= need,
                             f"{need} stored blocks after {what}")
    hashes, parent = [], None
    for event in stored(events):
        context = f"{what}: Stored event {show(event)}"
        if parent is None:
            assert not event.HasField("parent_block_hash"), f"the first block has a parent; {context}"
        else:
            assert event.HasField("parent_block_hash") and event.parent_block_hash == parent, (
                f"parent_block_hash is not the previous block's hash {parent}; {context}")
        for block in event.blocks:
            k = len(hashes)
            assert block.block_size == size, f"block_size of block {k}; {context}"
            assert list(block.token_ids) == full[size * k:size * k + size], (
                f"block {k} should hold {full[size * k:size * k + size]}; {context}")
            assert block.block_hash not in hashes, f"block hash {block.block_hash} repeats; {context}"
            hashes.append(block.block_hash)
        parent = hashes[-1] if hashes else None
    return hashes


def check_kv_events():
    flush()
    kv = KvStream(0)
    try:
        kv.snapshot()  # may still list blocks whose removal follows on the stream
        long_ids = EXPECTED["long_input_ids"]
        hashes = stored_chain(kv, long_ids, "the first long generation")

        flush()

        def gone(events):
            kinds = [e.WhichOneof("data") for e in events]
            removed = {h for e in events if e.WhichOneof("data") == "removed" for h in e.removed.block_hashes}
            return "cleared" in kinds or removed >= set(hashes)
        kv.events_until(gone, f"removed (or cleared) for {hashes} after FlushCache")
        last = kv.batches[-1].sequence_number
    finally:
        kv.close()

    kv = KvStream(last)
    try:
        hashes = stored_chain(kv, long_ids, f"resuming at {last}")
        first = kv.batches[0]
        assert first.sequence_number == last + 1, f"resumed at {last}, first batch is {show(first)}"
        print(f"  resumed at {last}: first batch {first.sequence_number} "
              f"({'a resync' if first.events[0].WhichOneof('data') == 'cleared' else 'no resync'})")
        last = kv.batches[-1].sequence_number
    finally:
        kv.close()

    ahead = last + 1_000_000
    kv = KvStream(ahead)
    try:
        held = kv.snapshot()
        first = kv.batches[0]
        assert first.sequence_number == ahead + 1, f"subscribed at {ahead}, first batch is {show(first)}"
        assert held >= set(hashes), f"the resync snapshot {held} lacks live blocks {set(hashes) - held}"
        stored_chain(kv, list(reversed(long_ids)), f"the resync at {ahead}")
    finally:
        kv.close()


# ---------------------------------------------------------------- n > 1


def check_samples():
    """n = 3: one complete per index, the stream ends after the last; greedy samples all
    equal the greedy output; streamed chunks carry their sample's index and concatenate,
    per index, to its complete's output_ids; the prompt is computed once (samples 1 and 2
    find it in the cache)."""
    case = greedy_cases()[0]
    ids, out = case["input_ids"], case["output_ids"]
    flush()
    for stream in (False, True):
        req = request(ids, sampling(case["max_new_tokens"], n=3), stream=stream)
        messages = list(rpc("Generate", req, 60))
        kinds = [m.WhichOneof("response") for m in messages]
        completes = [m.complete for m in messages if m.WhichOneof("response") == "complete"]
        what = f"n=3 stream={stream}: {kinds}: {show(messages, 1500)}"
        assert kinds[-1] == "complete" and len(completes) == 3, f"expected 3 completes, last; {what}"
        assert sorted(c.index for c in completes) == [0, 1, 2], f"indexes; {what}"
        per_index = {0: [], 1: [], 2: []}
        for m in messages:
            if m.WhichOneof("response") == "chunk":
                per_index[m.chunk.index].extend(m.chunk.token_ids)
        for c in completes:
            assert list(c.output_ids) == out, f"sample {c.index} differs from greedy {out}; {what}"
            assert c.prompt_tokens == len(ids), f"prompt_tokens; {what}"
            if stream:
                assert per_index[c.index] == out, f"chunks of sample {c.index}; {what}"
        cached = sorted(c.cached_tokens for c in completes)
        assert cached[1] >= len(ids) - 1, f"samples 1 and 2 must find the prompt cached: {cached}; {what}"


# ---------------------------------------------------------------- main

CHECKS = [
    check_auth, check_health, check_model_info, check_server_info, check_loads, check_tokenizer,
    check_generate, check_generate_stream, check_logprobs, check_input_logprobs, check_stop_and_limits,
    check_sampling,
    check_bad_input, check_embed, check_cached_tokens, check_flush_cache, check_abort, check_dropped_stream,
    check_samples, check_kv_events, check_health,
]


def main():
    try:
        grpc.channel_ready_future(CHANNEL).result(timeout=15)
    except grpc.FutureTimeoutError:
        raise AssertionError(f"could not connect to {TARGET} within 15 s")
    failed, started = [], time.monotonic()
    for check in CHECKS:
        name, began = check.__name__, time.monotonic()
        print(f"{name} ...", flush=True)
        try:
            check()
        except Exception:  # noqa: BLE001 - report every failing check, then fail the run
            failed.append(name)
            print(f"FAILED {name}:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
            print(f"  FAILED ({time.monotonic() - began:.1f}s)", flush=True)
            continue
        print(f"  ok ({time.monotonic() - began:.1f}s)", flush=True)
    total = time.monotonic() - started
    if failed:
        raise AssertionError(f"{len(failed)} sglang conformance check(s) failed in {total:.1f}s: {', '.join(failed)}")
    print(f"all {len(CHECKS)} checks in {total:.1f}s")
    print("sglang conformance checks passed")


if __name__ == "__main__":
    main()
