//! Typed lookups in GGUF metadata that tell a missing key from one of the wrong type, for the
//! readers of model hyper-parameters.

use super::error::GgufError;
use super::metadata::{Metadata, MetadataValue};

/// An [`GgufError::InvalidValue`] naming `key`.
pub fn invalid(key: &str, reason: String) -> GgufError {
    GgufError::InvalidValue {
        key: key.to_owned(),
        reason,
    }
}

/// Typed lookups over one file's metadata.
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    pub metadata: &'a Metadata,
}

impl<'a> Keys<'a> {
    pub fn new(metadata: &'a Metadata) -> Self {
        Self { metadata }
    }

    fn convert<T>(
        &self,
        key: &str,
        expected: &'static str,
        convert: impl Fn(&'a MetadataValue) -> Option<T>,
    ) -> Result<Option<T>, GgufError> {
        let Some(value) = self.metadata.get(key) else {
            return Ok(None);
        };
        convert(value)
            .map(Some)
            .ok_or_else(|| GgufError::WrongType {
                key: key.to_owned(),
                expected,
                found: value.type_name(),
            })
    }

    pub fn optional_usize(&self, key: &str) -> Result<Option<usize>, GgufError> {
        self.convert(key, "a non-negative integer", |value| {
            usize::try_from(value.as_u64()?).ok()
        })
    }

    pub fn optional_f32(&self, key: &str) -> Result<Option<f32>, GgufError> {
        self.convert(key, "a number", |value| value.as_f64().map(|v| v as f32))
    }

    pub fn optional_str(&self, key: &str) -> Result<Option<&'a str>, GgufError> {
        self.convert(key, "a string", MetadataValue::as_str)
    }

    pub fn optional_bool(&self, key: &str) -> Result<Option<bool>, GgufError> {
        self.convert(key, "a boolean", |value| match value {
            MetadataValue::Bool(b) => Some(*b),
            _ => None,
        })
    }

    /// A size given once for every layer or as an array of one per layer (Gemma 4's K/V
    /// heads and MLP widths), as one value per layer.
    pub fn optional_usize_per_layer(
        &self,
        key: &str,
        layers: usize,
    ) -> Result<Option<Vec<usize>>, GgufError> {
        let Some(value) = self.metadata.get(key) else {
            return Ok(None);
        };
        let Some(items) = value.as_array() else {
            return Ok(self.optional_usize(key)?.map(|v| vec![v; layers]));
        };
        let values: Option<Vec<usize>> = (items.iter())
            .map(|item| usize::try_from(item.as_u64()?).ok())
            .collect();
        match values {
            Some(values) if values.len() == layers => Ok(Some(values)),
            _ => Err(invalid(
                key,
                format!(
                    "{} entries for {layers} layers, or not all non-negative integers",
                    items.len()
                ),
            )),
        }
    }

    // The optional lookups return `None` only for an absent key (a wrong type is an error).
    pub fn required_usize(&self, key: &str) -> Result<usize, GgufError> {
        self.optional_usize(key)?.ok_or_else(|| missing(key))
    }

    pub fn required_f32(&self, key: &str) -> Result<f32, GgufError> {
        self.optional_f32(key)?.ok_or_else(|| missing(key))
    }

    pub fn required_str(&self, key: &str) -> Result<&'a str, GgufError> {
        self.optional_str(key)?.ok_or_else(|| missing(key))
    }

    pub fn positive(&self, key: &str, value: usize) -> Result<(), GgufError> {
        if value == 0 {
            return Err(invalid(key, "must be positive, found 0".to_owned()));
        }
        Ok(())
    }

    /// `value` of `key` is at most `max`: sizes a hostile file could set to anything, that
    /// the loader allocates or multiplies by.
    pub fn at_most(&self, key: &str, value: usize, max: usize) -> Result<(), GgufError> {
        if value > max {
            return Err(invalid(
                key,
                format!("{value} exceeds the largest allowed, {max}"),
            ));
        }
        Ok(())
    }
}

fn missing(key: &str) -> GgufError {
    GgufError::MissingKey {
        key: key.to_owned(),
    }
}
