//! Compiles every kernel source of `kernels/cuda/` as C++ against the emulator's headers
//! (`include/`), with the runtime, into one static library. Each source is its own
//! translation unit, as under NVRTC: a copy in OUT_DIR that includes the prelude first.

use std::path::PathBuf;

const SOURCES: [&str; 9] = [
    "kv_indices",
    "store_kv",
    "attention",
    "norm",
    "rope",
    "activation",
    "embedding",
    "cast",
    "sampling",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let cuda = manifest.join("../cuda");
    let include = manifest.join("include");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .include(&include)
        .include(&cuda)
        .warnings(false)
        // The kernels' rounding is spelled out; fused multiply-adds would change bits.
        .flag("-ffp-contract=off")
        .flag("-fno-strict-aliasing")
        .file(manifest.join("src/runtime.cpp"));
    let sources = SOURCES
        .iter()
        .map(|name| (*name, cuda.join(format!("{name}.cu"))))
        .chain([("probes", manifest.join("src/probes.cpp"))]);
    for (name, source) in sources {
        let text = match std::fs::read_to_string(&source) {
            Ok(text) => text,
            Err(err) => panic!("cannot read {}: {err}", source.display()),
        };
        let wrapper = out.join(format!("emu_{name}.cpp"));
        let file = source.display().to_string();
        let text = format!(
            "#include \"emu.h\"\n#line 1 \"{}\"\n{}",
            source.display(),
            poison_static_shared(&dynamic_shared(&text, &file), &file)
        );
        if let Err(err) = std::fs::write(&wrapper, text) {
            panic!("cannot write {}: {err}", wrapper.display());
        }
        build.file(&wrapper);
        println!("cargo:rerun-if-changed={}", source.display());
    }
    for path in [
        "include",
        "src/runtime.cpp",
        "src/probes.cpp",
        "../cuda/common.cuh",
    ] {
        println!("cargo:rerun-if-changed={}", manifest.join(path).display());
    }
    build.compile("cuda_emu");
}

/// The one source change the emulator needs: `extern __shared__ float smem[];` (the block's
/// dynamic shared memory) becomes a pointer to the runtime's buffer, since an `extern
/// thread_local` array declared inside a function does not link to a definition reliably.
fn dynamic_shared(text: &str, name: &str) -> String {
    const DECLARATION: &str = "extern __shared__ float smem[];";
    let replaced = text.replace(DECLARATION, "float* smem = emu_dynamic_shared();");
    if replaced.contains("extern __shared__") {
        panic!("{name}: dynamic shared memory other than `{DECLARATION}`");
    }
    replaced
}

/// After each static `__shared__` declaration (`__shared__ TYPE NAME[N];` or `__shared__
/// TYPE NAME;`, one per line), a call that poisons it once per block, as the runtime does the
/// dynamic shared memory: a read before any thread of the block wrote shows. Same line, so
/// line numbers stay.
fn poison_static_shared(text: &str, name: &str) -> String {
    let mut out = String::with_capacity(text.len() + 512);
    for line in text.lines() {
        out.push_str(line);
        if let Some(at) = line.find("__shared__ ") {
            let decl = line[at + "__shared__ ".len()..].trim();
            let var = decl
                .strip_suffix(';')
                .and_then(|d| d.split('[').next())
                .and_then(|head| head.split_whitespace().last());
            match var {
                Some(var) if decl.matches(';').count() == 1 => {
                    out.push_str(&format!(" emu_poison_shared(&{var}, sizeof({var}));"));
                }
                _ => panic!("{name}: a __shared__ declaration the emulator cannot read: {line}"),
            }
        }
        out.push('\n');
    }
    out
}
