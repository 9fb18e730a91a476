"""Streams a generation from a running radixserve over gRPC (`radixserve.v1`).

    pip install -r examples/python/requirements-grpc.txt
    scripts/serve.sh            # in another terminal (gRPC on port 50051)
    python3 examples/python/grpc_client.py "The capital of France is"
    python3 examples/python/grpc_client.py --chat "Name three colours of the rainbow."

The Python stubs are generated at run time from proto/radixserve/v1/radixserve.proto with
grpcio-tools into a temporary folder, so nothing generated is kept in the repository.
Set RADIXSERVE_GRPC to reach a server elsewhere (default 127.0.0.1:50051).
"""

import argparse
import importlib
import os
import pathlib
import sys
import tempfile

import grpc
from grpc_tools import protoc

REPO = pathlib.Path(__file__).resolve().parents[2]
PROTO_ROOT = REPO / "proto"
PROTO = "radixserve/v1/radixserve.proto"


def load_stubs(out_dir):
    """Compiles the .proto into `out_dir`; returns the messages and the service modules."""
    include = pathlib.Path(protoc.__file__).parent / "_proto"
    status = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--python_out={out_dir}",
            f"--grpc_python_out={out_dir}",
            PROTO,
        ]
    )
    if status != 0:
        sys.exit(f"protoc failed on {PROTO_ROOT / PROTO}")
    sys.path.insert(0, out_dir)
    pb = importlib.import_module("radixserve.v1.radixserve_pb2")
    rpc = importlib.import_module("radixserve.v1.radixserve_pb2_grpc")
    return pb, rpc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompt", nargs="?", default="The capital of France is")
    parser.add_argument("--chat", action="store_true", help="send the prompt as a user turn")
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--cache-salt", default=None)
    parser.add_argument("--timeout", type=float, default=60.0, help="call deadline, seconds")
    parser.add_argument(
        "--address", default=os.environ.get("RADIXSERVE_GRPC", "127.0.0.1:50051")
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as out_dir:
        pb, rpc = load_stubs(out_dir)
        with grpc.insecure_channel(args.address) as channel:
            stub = rpc.RadixServeStub(channel)
            model = stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=10)
            print(f"model: {model.name} (context {model.max_context_length})")

            request = pb.GenerateRequest(
                sampling_params=pb.SamplingParams(
                    temperature=args.temperature,
                    max_new_tokens=args.max_new_tokens,
                ),
            )
            if args.chat:
                request.chat.messages.add(role="user", content=args.prompt)
            else:
                request.text = args.prompt
            if args.cache_salt:
                request.cache_salt = args.cache_salt

            print("> ", end="", flush=True)
            try:
                for response in stub.Generate(request, timeout=args.timeout):
                    if response.HasField("chunk"):
                        print(response.chunk.text, end="", flush=True)
                    else:
                        done = response.finished
                        reason = pb.FinishReason.Name(done.finish_reason)
                        print(
                            f"\n[{response.request_id}] {reason}: "
                            f"{done.usage.prompt_tokens} prompt tokens "
                            f"({done.usage.cached_tokens} cached), "
                            f"{done.usage.completion_tokens} generated, "
                            f"first token after {done.ttft_s * 1000:.0f} ms"
                        )
            except grpc.RpcError as error:
                sys.exit(f"\n{error.code().name}: {error.details()}")

            info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=10)
            print(
                f"server: {info.running_requests} running, {info.waiting_requests} waiting, "
                f"cache hits {info.cache_hit_tokens}/{info.cache_queried_tokens} tokens"
            )


if __name__ == "__main__":
    main()
