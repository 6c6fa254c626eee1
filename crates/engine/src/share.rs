//! Share links: a whole scenario (settings, actions, seed) as one compact, URL-safe string, and
//! back (see `docs/share-format.md`).
//!
//! ```text
//! rb1.<base64url, no padding>( varint(json length) · lz(json) · crc32-le(varint · lz) )
//! ```
//!
//! * `rb1.` names the format and its version;
//! * the JSON is the scenario as [`scenario_to_json`] writes it (compact);
//! * `lz` is a small LZ77 coder whose window starts with a fixed dictionary of strings common in
//!   scenario files, so even a tiny scenario compresses well;
//! * the CRC-32 (IEEE) covers everything before it, so a mangled link is reported as such.
//!
//! [`decode`] never panics and bounds every part of its work: the string's length
//! ([`MAX_ENCODED_CHARS`]), the declared size ([`MAX_DECODED_BYTES`], and at most
//! [`MAX_EXPANSION`] bytes per byte of data, checked before allocating), the decompression (one
//! pass, each token checked against the declared size). Each failure is a distinct [`ShareError`].
//! The scenario is validated like a file ([`Scenario::from_json`]): its size, its JSON nesting
//! ([`crate::scenario::MAX_JSON_DEPTH`], checked before parsing, so a small link cannot exhaust
//! wasm's 1 MiB stack), and every limit of the scenario format.

use std::fmt;

use crate::scenario::{Scenario, ScenarioError};

/// The prefix of every share string of this version.
pub const PREFIX: &str = "rb1.";

/// The largest scenario JSON a share string may decode to (1 MiB).
pub const MAX_DECODED_BYTES: usize = 1 << 20;

/// The most output bytes one byte of compressed data can stand for: a back-reference token is at
/// least 2 bytes (the token and a 1-byte distance) and copies at most `MAX_MATCH` (131) bytes. A
/// declared length beyond this ratio is refused before anything is allocated for it.
pub const MAX_EXPANSION: u64 = MAX_MATCH.div_ceil(2) as u64;

/// The longest share string accepted (a link can never need more for a 1 MiB scenario in practice;
/// longer input is refused before any work).
pub const MAX_ENCODED_CHARS: usize = 2 << 20;

/// Strings that scenario files repeat; the coder's window starts with them. Part of format 1:
/// never change it (a new dictionary is a new version).
const DICTIONARY: &str = concat!(
    r#"{"version":1,"name":"","description":"","seed":0,"group_id":"test_group_1","end_ms":"#,
    r#""coordinator":{"group_initial_rebalance_delay_ms":3000,"group_max_size":"#,
    r#""client_defaults":{"subscription":{"topics":["round_topic"]},"pattern":"#,
    r#""assignors":["range","roundrobin","sticky","cooperative-sticky"],"#,
    r#""commit":{"mode":"manual","every_batches":1},{"mode":"auto","interval_ms":5000},{"mode":"never"},"#,
    r#""commit_in_revoke":true,"session_timeout_ms":10000,"heartbeat_interval_ms":3000,"#,
    r#""max_poll_interval_ms":300000,"processing_ms":1000,"max_poll_records":500,"#,
    r#""metadata_max_age_ms":"retry_backoff_ms":"request_timeout_ms":"group_instance_id":"client_id":"#,
    r#""network":{"latency_ms":5,"jitter_ms":0,"drop_probability":0.0,"delay_probability":0.0,"delay_ms":0},"#,
    r#""topics":[{"name":"round_topic","partitions":3,"records_per_sec":3,"initial_records":0}],"#,
    r#""consumers":[{"name":"A","start_ms":0,"#,
    r#""actions":[{"type":"add_consumer","at_ms":30000,"consumer":{"name":"B","#,
    r#"{"type":"kill","at_ms":{"type":"close","at_ms":{"type":"restart","at_ms":"#,
    r#"{"type":"pause","at_ms":"duration_ms":"heartbeats":false,"polls":true},{"type":"resume","at_ms":"#,
    r#"{"type":"subscribe","at_ms":{"type":"create_topic","at_ms":"topic":{"type":"add_partitions","at_ms":"#,
    r#"{"type":"delete_topic","at_ms":{"type":"set_produce_rate","at_ms":{"type":"set_network","at_ms":"#,
    r#"{"type":"coordinator_failover","at_ms":{"type":"request","at_ms":"script":"request":"#,
    r#"{"JoinGroup":{"api_version":9,"member_id":"","client_host":"/127.0.0.1","protocol_type":"consumer","#,
    r#""protocols":[{"name":"range","metadata":{"topics":["owned_partitions":[],"generation_id":-1,"user_data":[]}}],"#,
    r#""rebalance_timeout_ms":"reason":null},{"SyncGroup":{"Heartbeat":{"LeaveGroup":{"OffsetCommit":{"#,
    r#""retention_time_ms":null,"partitions":[{"topic":"t","partition":0,"committed_offset":"#,
    r#""committed_leader_epoch":-1,"committed_metadata":""}]}}},"#,
);

/// Why a share string could not be turned back into a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The text does not start with `rb<version>.`: not a share string of this program.
    NotOurFormat,
    /// A share string of a version this program does not read.
    UnknownVersion(String),
    /// The string is too long, or declares more than [`MAX_DECODED_BYTES`].
    TooLarge {
        /// The size found (characters of the string, or declared bytes).
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The checksum does not match: the link was cut or changed.
    BadChecksum,
    /// The data is damaged (bad characters, truncated, an impossible back-reference, not UTF-8,
    /// not JSON).
    Corrupt(String),
    /// The data decodes, but the scenario is invalid (the validator's message).
    InvalidScenario(ScenarioError),
    /// The text before the share string is not a mode this program knows: the only one is
    /// [`COMPARE_MARK`] (a mode cut short, given twice, misspelt). Holds that text as written, cut
    /// to [`MAX_MODE_SHOWN`] characters.
    UnknownMode(String),
}

/// The most characters of an unknown mode that [`ShareError::UnknownMode`] keeps (the rest is
/// replaced by `…`), so a huge mode cannot make a huge message.
pub const MAX_MODE_SHOWN: usize = 40;

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotOurFormat => f.write_str("not a scenario link of this playground (it should start with rb1.)"),
            Self::UnknownVersion(v) => write!(
                f,
                "this link was made by another version of the playground (format {v}); this one reads format 1"
            ),
            Self::TooLarge { size, limit } => write!(f, "too large: {size} (the limit is {limit})"),
            Self::BadChecksum => f.write_str("the link is damaged (checksum mismatch): was it cut or edited?"),
            Self::Corrupt(why) => write!(f, "the link is damaged: {why}"),
            Self::InvalidScenario(e) => write!(f, "the scenario in the link is invalid: {e}"),
            Self::UnknownMode(m) => write!(
                f,
                "the link's mode \"{m}\" is not one this playground knows: the only mode is \"{COMPARE_MARK}\", written once, just before \"{PREFIX}\""
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// The scenario as compact JSON (the scenario file format, without whitespace).
pub fn scenario_to_json(scenario: &Scenario) -> String {
    // Serialising plain data into a String cannot fail.
    serde_json::to_string(scenario).unwrap_or_default()
}

/// The scenario as pretty JSON: the file the playground exports, which `rebalance-sim run` and
/// [`Scenario::from_json`] read back to an equal scenario.
pub fn scenario_to_pretty_json(scenario: &Scenario) -> String {
    let mut s = indent_json(&scenario_to_json(scenario));
    s.push('\n');
    s
}

/// Lays compact JSON out the way `serde_json::to_string_pretty` does (two spaces per level, `": "`
/// after a key, `[]` and `{}` when empty). Going through the compact text keeps one serialiser of
/// the scenario types in the wasm bundle instead of two.
fn indent_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    while let Some(c) = chars.next() {
        out.push(c);
        if in_string {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => escaped = false,
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                out.pop();
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => newline(&mut out, depth),
            ':' => out.push(' '),
            _ => {}
        }
    }
    out
}

/// Encodes a scenario as a share string.
pub fn encode(scenario: &Scenario) -> String {
    encode_text(&scenario_to_json(scenario))
}

/// Encodes any text (used by [`encode`]; exposed for tests and tools).
pub fn encode_text(json: &str) -> String {
    let mut body = Vec::with_capacity(json.len() / 3 + 16);
    put_varint(&mut body, json.len() as u64);
    compress(json.as_bytes(), &mut body);
    let crc = crc32(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    let mut out = String::with_capacity(PREFIX.len() + body.len() * 4 / 3 + 4);
    out.push_str(PREFIX);
    base64url_encode(&body, &mut out);
    out
}

/// What a link opens: the scenario as a session, or in compare mode (every protocol side by side,
/// see [`crate::compare`]). In a scenario file ([`Scenario::mode`]) it is written `"session"` or
/// `"compare"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkMode {
    /// One session (every link made before compare mode existed).
    #[default]
    Session,
    /// Compare mode.
    Compare,
}

/// The mark before the share string of a compare-mode link: `compare&rb1.…`. A decoder that does
/// not know it reads what follows the last `&`, the share string, and opens the story as a session.
pub const COMPARE_MARK: &str = "compare&";

/// Encodes a scenario as a share string in `mode` (a session's link is [`encode`]'s).
pub fn encode_with_mode(scenario: &Scenario, mode: LinkMode) -> String {
    match mode {
        LinkMode::Session => encode(scenario),
        LinkMode::Compare => format!("{COMPARE_MARK}{}", encode(scenario)),
    }
}

/// The mode a share string (or a whole link) asks for: compare if [`COMPARE_MARK`] is just before
/// its share string, else a session.
pub fn link_mode(text: &str) -> LinkMode {
    let text = text.trim();
    let start = text.rfind(['#', '=', '?', '&']).map_or(0, |i| i + 1);
    if text[..start].ends_with(COMPARE_MARK) {
        LinkMode::Compare
    } else {
        LinkMode::Session
    }
}

/// The mode a share string (or a whole link) asks for, strictly: nothing before the share string
/// (after the link's `#`, `=` or `?`) is a session, exactly [`COMPARE_MARK`] is compare mode, and
/// anything else (`compar&`, `compare&compare&`, `replay&`, `Compare&`) is
/// [`ShareError::UnknownMode`], holding that text as written (cut to [`MAX_MODE_SHOWN`]
/// characters). One pass over the text; nothing is allocated for a long mode but the message.
pub fn parse_link_mode(text: &str) -> Result<LinkMode, ShareError> {
    let text = text.trim();
    let start = text.rfind(['#', '=', '?', '&']).map_or(0, |i| i + 1);
    let head = &text[..start];
    let mut mode = &head[head.rfind(['#', '=', '?']).map_or(0, |i| i + 1)..];
    // A mode written after the share string (`rb1.…&compare`): name the mode, not the link.
    let tail = &text[start..];
    if mode.starts_with(PREFIX) && !tail.starts_with("rb") {
        mode = tail;
    }
    match mode {
        "" => Ok(LinkMode::Session),
        COMPARE_MARK => Ok(LinkMode::Compare),
        other => {
            let mut shown: String = other.chars().take(MAX_MODE_SHOWN).collect();
            if other.chars().nth(MAX_MODE_SHOWN).is_some() {
                shown.push('…');
            }
            Err(ShareError::UnknownMode(shown))
        }
    }
}

/// Decodes a share string to a validated scenario and the mode it asks for. The mode is checked
/// first ([`parse_link_mode`]): a link whose mode is not known is refused, whatever follows it.
pub fn decode_with_mode(text: &str) -> Result<(Scenario, LinkMode), ShareError> {
    let mode = parse_link_mode(text)?;
    Ok((decode(text)?, mode))
}

/// Decodes a share string to a validated scenario.
pub fn decode(text: &str) -> Result<Scenario, ShareError> {
    let json = decode_text(text)?;
    Scenario::from_json(&json).map_err(ShareError::InvalidScenario)
}

/// Decodes a share string to its JSON text, checking the prefix, version, size and checksum.
pub fn decode_text(text: &str) -> Result<String, ShareError> {
    let text = text.trim();
    // Accept a whole link: take what follows the last `#` or `=` (e.g. `...#s=rb1.xxx`).
    let text = text.rsplit(['#', '=', '?', '&']).next().unwrap_or(text);
    let Some(rest) = text.strip_prefix("rb") else {
        return Err(ShareError::NotOurFormat);
    };
    let Some((version, payload)) = rest.split_once('.') else {
        return Err(ShareError::NotOurFormat);
    };
    if version.is_empty() || !version.chars().all(|c| c.is_ascii_digit()) {
        return Err(ShareError::NotOurFormat);
    }
    if version != "1" {
        return Err(ShareError::UnknownVersion(version.chars().take(12).collect()));
    }
    if payload.len() > MAX_ENCODED_CHARS {
        return Err(ShareError::TooLarge {
            size: payload.len(),
            limit: MAX_ENCODED_CHARS,
        });
    }
    let bytes = base64url_decode(payload)?;
    if bytes.len() < 5 {
        return Err(ShareError::Corrupt("too short".into()));
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    let want = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
    if crc32(body) != want {
        return Err(ShareError::BadChecksum);
    }
    let mut pos = 0;
    let len = get_varint(body, &mut pos).ok_or_else(|| ShareError::Corrupt("bad length".into()))?;
    if len > MAX_DECODED_BYTES as u64 {
        return Err(ShareError::TooLarge {
            size: usize::try_from(len).unwrap_or(usize::MAX),
            limit: MAX_DECODED_BYTES,
        });
    }
    let packed = (body.len() - pos) as u64;
    if len > packed * MAX_EXPANSION {
        return Err(ShareError::Corrupt(format!(
            "it declares {len} bytes of scenario from {packed} bytes of data, more than the format can \
             expand ({MAX_EXPANSION} per byte)"
        )));
    }
    let out = decompress(&body[pos..], len as usize)?;
    String::from_utf8(out).map_err(|_| ShareError::Corrupt("not UTF-8 text".into()))
}

// ------------------------------------------------------------------------------------ varints

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn get_varint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for shift in (0..64).step_by(7) {
        let b = *data.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

// ------------------------------------------------------------------------------------ LZ77

/// The shortest match worth a back-reference.
const MIN_MATCH: usize = 4;
/// The longest match one token can carry.
const MAX_MATCH: usize = MIN_MATCH + 0x7F;
/// The longest literal run one token can carry.
const MAX_LITERALS: usize = 0x80;
const HASH_BITS: u32 = 13;
const MAX_CHAIN: usize = 48;

fn hash4(b: &[u8]) -> usize {
    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize
}

/// Tokens: a byte `c < 0x80` is a run of `c + 1` literal bytes that follow; a byte `c >= 0x80` is
/// a match of `(c & 0x7F) + MIN_MATCH` bytes at the varint distance that follows (distances reach
/// back into the dictionary).
fn compress(input: &[u8], out: &mut Vec<u8>) {
    let dict = DICTIONARY.as_bytes();
    let mut buf = Vec::with_capacity(dict.len() + input.len());
    buf.extend_from_slice(dict);
    buf.extend_from_slice(input);
    let start = dict.len();
    let mut head = vec![u32::MAX; 1 << HASH_BITS];
    let mut prev = vec![u32::MAX; buf.len()];
    let insert = |head: &mut Vec<u32>, prev: &mut Vec<u32>, i: usize| {
        if i + MIN_MATCH <= buf.len() {
            let h = hash4(&buf[i..]);
            prev[i] = head[h];
            head[h] = i as u32;
        }
    };
    for i in 0..start {
        insert(&mut head, &mut prev, i);
    }
    let mut literals: Vec<u8> = Vec::new();
    let flush = |literals: &mut Vec<u8>, out: &mut Vec<u8>| {
        for chunk in literals.chunks(MAX_LITERALS) {
            out.push((chunk.len() - 1) as u8);
            out.extend_from_slice(chunk);
        }
        literals.clear();
    };
    let mut i = start;
    while i < buf.len() {
        let mut best_len = 0;
        let mut best_dist = 0;
        if i + MIN_MATCH <= buf.len() {
            let mut cand = head[hash4(&buf[i..])];
            let mut chain = 0;
            while cand != u32::MAX && chain < MAX_CHAIN {
                let c = cand as usize;
                let limit = (buf.len() - i).min(MAX_MATCH);
                let mut l = 0;
                while l < limit && buf[c + l] == buf[i + l] {
                    l += 1;
                }
                if l > best_len {
                    best_len = l;
                    best_dist = i - c;
                    if l == limit {
                        break;
                    }
                }
                cand = prev[c];
                chain += 1;
            }
        }
        if best_len >= MIN_MATCH {
            flush(&mut literals, out);
            out.push(0x80 | (best_len - MIN_MATCH) as u8);
            put_varint(out, best_dist as u64);
            for k in i..i + best_len {
                insert(&mut head, &mut prev, k);
            }
            i += best_len;
        } else {
            literals.push(buf[i]);
            insert(&mut head, &mut prev, i);
            i += 1;
        }
    }
    flush(&mut literals, out);
}

fn decompress(data: &[u8], len: usize) -> Result<Vec<u8>, ShareError> {
    let dict = DICTIONARY.as_bytes();
    let mut buf = Vec::with_capacity(dict.len() + len);
    buf.extend_from_slice(dict);
    let end = dict.len() + len;
    let mut pos = 0;
    let corrupt = |why: &str| ShareError::Corrupt(why.to_owned());
    while pos < data.len() {
        let c = data[pos];
        pos += 1;
        if c < 0x80 {
            let n = usize::from(c) + 1;
            let lit = data
                .get(pos..pos + n)
                .ok_or_else(|| corrupt("truncated literal run"))?;
            if buf.len() + n > end {
                return Err(corrupt("more data than declared"));
            }
            buf.extend_from_slice(lit);
            pos += n;
        } else {
            let n = usize::from(c & 0x7F) + MIN_MATCH;
            let dist = get_varint(data, &mut pos).ok_or_else(|| corrupt("truncated back-reference"))?;
            let dist = usize::try_from(dist).map_err(|_| corrupt("impossible back-reference"))?;
            if dist == 0 || dist > buf.len() {
                return Err(corrupt("impossible back-reference"));
            }
            if buf.len() + n > end {
                return Err(corrupt("more data than declared"));
            }
            let from = buf.len() - dist;
            for k in 0..n {
                let b = buf[from + k];
                buf.push(b);
            }
        }
    }
    if buf.len() != end {
        return Err(corrupt("less data than declared"));
    }
    Ok(buf.split_off(dict.len()))
}

// ------------------------------------------------------------------------------------ CRC-32

/// CRC-32 (IEEE 802.3, as zlib and PNG use).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

// ------------------------------------------------------------------------------------ base64url

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url_encode(data: &[u8], out: &mut String) {
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for k in 0..chars {
            out.push(B64[((n >> (18 - 6 * k)) & 0x3F) as usize] as char);
        }
    }
}

fn base64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in text.chars().enumerate() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' => 62,
            '_' => 63,
            _ => {
                return Err(ShareError::Corrupt(format!(
                    "character {c:?} at position {} is not base64url",
                    i + PREFIX.len()
                )))
            }
        };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err(ShareError::Corrupt("truncated (impossible length)".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_json_is_laid_out_as_serde_json_pretty_prints_it() {
        let value: serde_json::Value = serde_json::from_str(
            r#"{"a":[],"b":{},"c":[1,{"d":"x,y:{}[]\\\"z"}],"e":{"f":null,"g":[true,false]},"h":"\u00e9\n"}"#,
        )
        .unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(
            indent_json(&compact),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for n in 0..40u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            let mut s = String::new();
            base64url_encode(&data, &mut s);
            assert_eq!(base64url_decode(&s).unwrap(), data);
        }
    }

    #[test]
    fn lz_round_trips_repetitive_and_random_text() {
        for text in [
            "",
            "a",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            DICTIONARY,
            "xyz{\"type\":\"kill\"",
        ] {
            let mut out = Vec::new();
            compress(text.as_bytes(), &mut out);
            assert_eq!(decompress(&out, text.len()).unwrap(), text.as_bytes());
        }
    }
}
