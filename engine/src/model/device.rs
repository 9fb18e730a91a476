//! Where the model runs: `cpu` (the default) or `cuda:N` (the GPU runner, feature `cuda`).

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Device {
    #[default]
    Cpu,
    /// CUDA device ordinal.
    Cuda(usize),
}

impl Device {
    /// Whether this build can run on the device (`cuda:N` needs the `cuda` feature).
    pub fn supported(self) -> bool {
        match self {
            Device::Cpu => true,
            Device::Cuda(_) => cfg!(feature = "cuda"),
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(n) => write!(f, "cuda:{n}"),
        }
    }
}

impl FromStr for Device {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("unknown device {s:?}: expected \"cpu\", \"cuda\" or \"cuda:N\"");
        match s.trim().to_ascii_lowercase().as_str() {
            "cpu" => Ok(Device::Cpu),
            "cuda" => Ok(Device::Cuda(0)),
            other => {
                let ordinal = other.strip_prefix("cuda:").ok_or_else(bad)?;
                ordinal.parse().map(Device::Cuda).map_err(|_| bad())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cpu_and_cuda_ordinals_and_rejects_the_rest() {
        assert_eq!("cpu".parse(), Ok(Device::Cpu));
        assert_eq!("CUDA".parse(), Ok(Device::Cuda(0)));
        assert_eq!("cuda:3".parse(), Ok(Device::Cuda(3)));
        for bad in ["gpu", "cuda:", "cuda:-1", "cuda:x", "cuda0", ""] {
            let err = bad.parse::<Device>().unwrap_err();
            assert!(err.contains("expected"), "{bad}: {err}");
        }
        assert_eq!(Device::Cuda(1).to_string(), "cuda:1");
        assert!(Device::Cpu.supported());
        assert_eq!(Device::Cuda(0).supported(), cfg!(feature = "cuda"));
    }
}
