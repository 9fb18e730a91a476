//! GBNF (the EBNF of llama.cpp and of SGLang's `ebnf` parameter) to Lark, llguidance's native
//! form: `root ::= ...` rules become `start: ...`, character classes and `.` become regex
//! terminals, rule names are made Lark-safe; strings, grouping, alternation and repetition
//! (`* + ? {m,n}`) carry over as they are.

/// Converts a GBNF grammar; an error names what could not be read.
pub fn gbnf_to_lark(gbnf: &str) -> Result<String, String> {
    let tokens = lex(gbnf)?;
    let mut rules: Vec<(String, Vec<String>)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match (&tokens[i], tokens.get(i + 1)) {
            (Tok::Name(name), Some(Tok::Assign)) => {
                rules.push((rule_name(name), Vec::new()));
                i += 2;
            }
            (tok, _) => {
                let Some((_, body)) = rules.last_mut() else {
                    return Err("ebnf: the grammar must start with a rule (`root ::= ...`)".into());
                };
                body.push(match tok {
                    Tok::Name(name) => rule_name(name),
                    Tok::Assign => return Err("ebnf: `::=` without a rule name".into()),
                    Tok::Text(text) => text.clone(),
                });
                i += 1;
            }
        }
    }
    if !rules.iter().any(|(name, _)| name == "start") {
        return Err("ebnf: the grammar has no `root` rule".into());
    }
    let mut lark = String::new();
    for (name, body) in rules {
        if body.is_empty() {
            return Err(format!("ebnf: rule `{name}` is empty"));
        }
        lark.push_str(&name);
        lark.push_str(": ");
        lark.push_str(&body.join(" "));
        lark.push('\n');
    }
    Ok(lark)
}

enum Tok {
    Name(String),
    Assign,
    /// Anything copied into the Lark rule as is (already converted).
    Text(String),
}

fn rule_name(name: &str) -> String {
    if name == "root" {
        return "start".into();
    }
    let mut out: String = name
        .chars()
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    // Lark names start with a letter or `_`; `start` is taken by `root`.
    if out.starts_with(|c: char| c.is_ascii_digit()) || out == "start" {
        out.insert_str(0, "r_");
    }
    out
}

fn lex(src: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            _ if c.is_whitespace() => i += 1,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ':' if chars.get(i + 1) == Some(&':') && chars.get(i + 2) == Some(&'=') => {
                tokens.push(Tok::Assign);
                i += 3;
            }
            '"' => {
                let end = closing(&chars, i, '"')?;
                tokens.push(Tok::Text(chars[i..=end].iter().collect()));
                i = end + 1;
            }
            '[' => {
                let end = closing(&chars, i, ']')?;
                let class: String = chars[i..=end].iter().collect();
                tokens.push(Tok::Text(format!("/{}/", class.replace('/', "\\/"))));
                i = end + 1;
            }
            '{' => {
                let end = closing(&chars, i, '}')?;
                tokens.push(Tok::Text(chars[i..=end].iter().collect()));
                i = end + 1;
            }
            '.' => {
                tokens.push(Tok::Text("/(?s:.)/".into()));
                i += 1;
            }
            '|' | '(' | ')' | '*' | '+' | '?' => {
                tokens.push(Tok::Text(c.to_string()));
                i += 1;
            }
            _ if c.is_ascii_alphanumeric() || c == '-' || c == '_' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || chars[i] == '-' || chars[i] == '_')
                {
                    i += 1;
                }
                tokens.push(Tok::Name(chars[start..i].iter().collect()));
            }
            _ => return Err(format!("ebnf: unexpected {c:?}")),
        }
    }
    Ok(tokens)
}

/// Index of the `close` that ends the literal opened at `open`, skipping escapes.
fn closing(chars: &[char], open: usize, close: char) -> Result<usize, String> {
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == close => return Ok(i),
            _ => i += 1,
        }
    }
    Err(format!("ebnf: unclosed {:?}", chars[open]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_converts_rule_by_rule() {
        let gbnf = "# sums\nroot ::= expr\nexpr ::= term ((\"+\" | \"-\") term)*\n\
                    term ::= [0-9]{1,3}\n  | \"(\" expr \")\"\nws-x ::= [ \\t]* .";
        let lark = gbnf_to_lark(gbnf).unwrap();
        assert_eq!(
            lark,
            "start: expr\nexpr: term ( ( \"+\" | \"-\" ) term ) *\n\
             term: /[0-9]/ {1,3} | \"(\" expr \")\"\nws_x: /[ \\t]/ * /(?s:.)/\n"
        );
    }

    #[test]
    fn malformed_grammars_say_why() {
        assert!(gbnf_to_lark("x ::= \"a").unwrap_err().contains("unclosed"));
        assert!(gbnf_to_lark("x ::= \"a\"")
            .unwrap_err()
            .contains("no `root`"));
        assert!(gbnf_to_lark("\"a\"")
            .unwrap_err()
            .contains("must start with a rule"));
        assert!(gbnf_to_lark("root ::= @")
            .unwrap_err()
            .contains("unexpected"));
    }
}
