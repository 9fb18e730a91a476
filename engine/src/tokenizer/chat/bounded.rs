//! The filters and methods a chat template may call, as Hugging Face's Jinja offers them, with
//! a size check before anything that could build a huge value from a small template
//! (`limits` says why): `indent`, `replace`, `format` and `join` refuse a result larger than
//! [`MAX_RENDERED_BYTES`], `tojson` writes into a capped buffer, and printing a value or
//! passing it to a filter or method that walks it refuses one of more than [`MAX_ITEMS`]
//! items (`[1] * 2**40` is a lazy sequence that `list` would try to allocate at once, and
//! that printing would walk to its end). Python's `center`, `ljust`,
//! `rjust` and `zfill` are not offered (minijinja's pycompat has none), so they amplify
//! nothing.

use std::borrow::Cow;
use std::fmt::Write as _;

use minijinja::value::{Kwargs, Rest, Value, ValueKind};
use minijinja::{escape_formatter, filters, Environment, Error, ErrorKind, Output, State};
use serde::Serialize;

use super::limits::{CappedWriter, MAX_ITEMS, MAX_RENDERED_BYTES};

/// Installs the bounded filters and methods, `tojson` as Python prints it,
/// `raise_exception` and `strftime_now`.
pub(super) fn install(env: &mut Environment<'static>) {
    env.set_formatter(bounded_formatter);
    env.set_unknown_method_callback(bounded_method);
    env.add_function("raise_exception", raise_exception);
    env.add_function("strftime_now", super::clock::strftime_now);
    env.add_filter("tojson", guarded(Value::from_function(tojson)));
    env.add_filter("indent", guarded(Value::from_function(indent)));
    env.add_filter("replace", guarded(Value::from_function(replace)));
    env.add_filter("format", guarded(Value::from_function(format)));
    env.add_filter("join", guarded(Value::from_function(join)));
    let walkers = [
        ("list", Value::from_function(filters::list)),
        ("string", Value::from_function(filters::string)),
        ("pprint", Value::from_function(filters::pprint)),
        ("sum", Value::from_function(filters::sum)),
        ("min", Value::from_function(filters::min)),
        ("max", Value::from_function(filters::max)),
        ("first", Value::from_function(filters::first)),
        ("last", Value::from_function(filters::last)),
        ("sort", Value::from_function(filters::sort)),
        ("dictsort", Value::from_function(filters::dictsort)),
        ("items", Value::from_function(filters::items)),
        ("reverse", Value::from_function(filters::reverse)),
        ("unique", Value::from_function(filters::unique)),
        ("groupby", Value::from_function(filters::groupby)),
        ("map", Value::from_function(filters::map)),
        ("select", Value::from_function(filters::select)),
        ("reject", Value::from_function(filters::reject)),
        ("selectattr", Value::from_function(filters::selectattr)),
        ("rejectattr", Value::from_function(filters::rejectattr)),
        ("chain", Value::from_function(filters::chain)),
        ("zip", Value::from_function(filters::zip)),
    ];
    for (name, filter) in walkers {
        env.add_filter(name, guarded(filter));
    }
    // Both allocate room for `count` groups up front.
    env.add_filter("batch", counted(Value::from_function(filters::batch)));
    env.add_filter("slice", counted(Value::from_function(filters::slice)));
}

fn raise_exception(message: String) -> Result<Value, Error> {
    Err(Error::new(ErrorKind::InvalidOperation, message))
}

fn too_large(what: &str, bytes: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        format!(
            "{what} would build {bytes} bytes, more than the {MAX_RENDERED_BYTES} a chat \
             template may"
        ),
    )
}

/// `filter`, called only when its arguments pass [`check_size`].
fn guarded(filter: Value) -> impl Fn(&State, Rest<Value>) -> Result<Value, Error> {
    move |state: &State, args: Rest<Value>| {
        check_size(&args)?;
        filter.call(state, &args)
    }
}

/// [`guarded`], and no count after the input exceeds [`MAX_ITEMS`] (`batch(n)`, `slice(n)`).
fn counted(filter: Value) -> impl Fn(&State, Rest<Value>) -> Result<Value, Error> {
    move |state: &State, args: Rest<Value>| {
        for count in args.iter().skip(1) {
            if count.is_integer() && count.as_usize().is_none_or(|n| n > MAX_ITEMS) {
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!("a count of {count} exceeds the {MAX_ITEMS} a chat template may use"),
                ));
            }
        }
        check_size(&args)?;
        filter.call(state, &args)
    }
}

/// Refuses `values` if together they hold more than [`MAX_ITEMS`] items, nested ones
/// included. Walking or printing a sequence takes as long as it is long, write errors or not
/// (minijinja prints every item), and `[[1] * 2**40]` is short to write.
fn check_size(values: &[Value]) -> Result<(), Error> {
    let mut budget = MAX_ITEMS;
    let mut pending = values.to_vec();
    while let Some(value) = pending.pop() {
        let kind = value.kind();
        if !matches!(kind, ValueKind::Seq | ValueKind::Map | ValueKind::Iterable) {
            continue;
        }
        // minijinja prints a sequence of unknown length without walking it.
        let Some(len) = value.len() else { continue };
        budget = budget.checked_sub(len).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidOperation,
                format!("a value of {len} items exceeds the {MAX_ITEMS} a chat template may use"),
            )
        })?;
        match value.as_object().filter(|_| kind == ValueKind::Map) {
            Some(map) => pending.extend(map.try_iter_pairs().into_iter().flatten().map(|(_, v)| v)),
            None => pending.extend(value.try_iter()?),
        }
    }
    Ok(())
}

/// Prints `{{ value }}` as minijinja does, after [`check_size`].
fn bounded_formatter(out: &mut Output<'_>, state: &State, value: &Value) -> Result<(), Error> {
    check_size(std::slice::from_ref(value))?;
    escape_formatter(out, state, value)
}

/// Python's string methods (minijinja's pycompat), with `replace`, `format` and `join`
/// checked first.
fn bounded_method(
    state: &State,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    check_size(args)?;
    if let Some(text) = value.as_str() {
        match method {
            "replace" => {
                let count = args.get(2).and_then(Value::as_i64).unwrap_or(-1);
                let limit = usize::try_from(count).unwrap_or(usize::MAX);
                check_replace(text, args.first(), args.get(1), limit)?;
            }
            "format" => check_format(text)?,
            "join" => {
                if let Some(items) = args.first() {
                    check_join(items, text)?;
                }
            }
            _ => {}
        }
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// The text a filter would see for `value` (strings as they are, anything else printed),
/// refused past [`MAX_RENDERED_BYTES`].
fn text_of(value: &Value) -> Result<Cow<'_, str>, Error> {
    if let Some(text) = value.as_str() {
        return Ok(Cow::Borrowed(text));
    }
    let mut text = Measured::keeping();
    write!(text, "{value}")
        .map_err(|_| too_large("printing a value", format!("over {MAX_RENDERED_BYTES}")))?;
    Ok(Cow::Owned(text.kept))
}

/// Measures text written to it, keeping it if asked; a write past [`MAX_RENDERED_BYTES`]
/// fails, which stops the printing of a huge value early.
#[derive(Default)]
struct Measured {
    bytes: usize,
    keep: bool,
    kept: String,
}

impl Measured {
    fn keeping() -> Self {
        Self {
            keep: true,
            ..Self::default()
        }
    }
}

impl std::fmt::Write for Measured {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes = self.bytes.saturating_add(s.len());
        if self.bytes > MAX_RENDERED_BYTES {
            return Err(std::fmt::Error);
        }
        if self.keep {
            self.kept.push_str(s);
        }
        Ok(())
    }
}

/// `text.replace(from, to)` with at most `limit` replacements, refused if the result would
/// be too large.
fn check_replace(
    text: &str,
    from: Option<&Value>,
    to: Option<&Value>,
    limit: usize,
) -> Result<(), Error> {
    let (Some(from), Some(to)) = (from, to) else {
        return Ok(());
    };
    let (from, to) = (text_of(from)?, text_of(to)?);
    if to.len() <= from.len() {
        return Ok(());
    }
    let replaced = text.matches(from.as_ref()).take(limit).count();
    let bytes = replaced
        .checked_mul(to.len() - from.len())
        .and_then(|grown| grown.checked_add(text.len()));
    match bytes {
        Some(bytes) if bytes <= MAX_RENDERED_BYTES => Ok(()),
        Some(bytes) => Err(too_large("replace", bytes)),
        None => Err(too_large("replace", "over 2^64")),
    }
}

fn replace(state: &State, args: Rest<Value>) -> Result<Value, Error> {
    if let Some(value) = args.first() {
        check_replace(&text_of(value)?, args.get(1), args.get(2), usize::MAX)?;
    }
    Value::from_function(filters::replace).call(state, &args)
}

/// A format string's widths and precisions (its digit runs) may add at most
/// [`MAX_RENDERED_BYTES`] bytes between them. Counting every digit run, literal text's too,
/// keeps this independent of the two format syntaxes' parsers.
fn check_format(format: &str) -> Result<(), Error> {
    let mut total: usize = 0;
    for run in format.split(|c: char| !c.is_ascii_digit()) {
        if run.is_empty() {
            continue;
        }
        let value = run.parse::<usize>().unwrap_or(usize::MAX);
        total = total.saturating_add(value);
        if total > MAX_RENDERED_BYTES {
            return Err(too_large("the widths of a format string", total));
        }
    }
    Ok(())
}

fn format(state: &State, args: Rest<Value>) -> Result<Value, Error> {
    if let Some(format) = args.first().and_then(Value::as_str) {
        check_format(format)?;
    }
    Value::from_function(filters::format).call(state, &args)
}

/// `separator.join(items)`, refused if the result would be too large.
fn check_join(items: &Value, separator: &str) -> Result<(), Error> {
    let mut bytes = Measured::default();
    for (i, item) in items.try_iter()?.enumerate() {
        if i >= MAX_ITEMS {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("join over more than the {MAX_ITEMS} items a chat template may use"),
            ));
        }
        let separator = if i > 0 { separator } else { "" };
        if write!(bytes, "{separator}{item}").is_err() {
            return Err(too_large("join", bytes.bytes));
        }
    }
    Ok(())
}

fn join(state: &State, args: Rest<Value>) -> Result<Value, Error> {
    if let Some(items) = args.first() {
        let separator = match args.get(1).filter(|v| !v.is_kwargs()) {
            Some(separator) => text_of(separator)?,
            None => Cow::Borrowed(""),
        };
        check_join(items, &separator)?;
    }
    Value::from_function(filters::join).call(state, &args)
}

/// `indent(width)`, refused if the indentation of every line would be too large.
fn indent(state: &State, args: Rest<Value>) -> Result<Value, Error> {
    let width = match args.get(1) {
        Some(v) if v.is_kwargs() => Kwargs::try_from(v.clone())?.peek::<Option<Value>>("width")?,
        other => other.cloned(),
    };
    if let (Some(value), Some(width)) = (args.first(), width.filter(|w| w.is_integer())) {
        let text = text_of(value)?;
        let lines = text.matches('\n').count() + 1;
        let bytes = width
            .as_usize()
            .and_then(|width| width.checked_mul(lines))
            .and_then(|spaces| spaces.checked_add(text.len()));
        match bytes {
            Some(bytes) if bytes <= MAX_RENDERED_BYTES => {}
            Some(bytes) => return Err(too_large("indent", bytes)),
            None => return Err(too_large("indent", format!("{width} x {lines} lines"))),
        }
    }
    Value::from_function(filters::indent).call(state, &args)
}

/// `tojson` with Python's separators (`", "`, `": "`) and no HTML escaping; `indent=n`
/// pretty-prints. Written into a buffer capped at [`MAX_RENDERED_BYTES`].
fn tojson(value: Value, kwargs: Kwargs) -> Result<Value, Error> {
    let indent: Option<usize> = kwargs.get("indent")?;
    // Accepted for compatibility; output is never ASCII-escaped and keys keep their order.
    let _: Option<bool> = kwargs.get("ensure_ascii")?;
    let _: Option<bool> = kwargs.get("sort_keys")?;
    kwargs.assert_all_used()?;
    let mut out = CappedWriter::new(MAX_RENDERED_BYTES);
    let written = match indent {
        Some(width) if width > MAX_RENDERED_BYTES => {
            return Err(too_large("tojson(indent)", width));
        }
        Some(width) => {
            let indent = vec![b' '; width];
            let formatter = serde_json::ser::PrettyFormatter::with_indent(&indent);
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            value.serialize(&mut ser)
        }
        None => {
            let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
            value.serialize(&mut ser)
        }
    };
    if out.overflowed() {
        return Err(too_large("tojson", format!("over {MAX_RENDERED_BYTES}")));
    }
    written.map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    let text = String::from_utf8(out.into_bytes())
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    Ok(Value::from_safe_string(text))
}

/// serde_json output with Python's default `json.dumps` separators.
struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}
