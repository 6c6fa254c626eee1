//! Crafted share links: small links cannot declare huge outputs, nest deeply or ask for a huge
//! world; each is refused with a message.

use rebalance_engine::share::{self, ShareError, MAX_EXPANSION};

/// A link with a valid checksum around `body` (varint length + tokens), built by hand.
fn link(body: &[u8]) -> String {
    let mut b = body.to_vec();
    b.extend_from_slice(&share::crc32(body).to_le_bytes());
    let mut s = String::from("rb1.");
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..=c.len() {
            s.push(B64[((n >> (18 - 6 * k)) & 0x3F) as usize] as char);
        }
    }
    s
}

#[test]
fn a_short_link_cannot_declare_a_megabyte() {
    // Declares 1 MiB (varint 0x80 0x80 0x40) from two bytes of data.
    let l = link(&[0x80, 0x80, 0x40, 0xFF, 0x01]);
    assert!(l.len() < 100);
    match share::decode_text(&l) {
        Err(ShareError::Corrupt(why)) => assert!(why.contains(&MAX_EXPANSION.to_string()), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_short_link_of_deep_nesting_is_refused_before_parsing() {
    let json = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let l = share::encode_text(&json);
    assert!(l.len() < 300, "{}", l.len());
    let e = share::decode(&l).unwrap_err().to_string();
    assert!(e.contains("at most 64"), "{e}");
    let json = format!(
        r#"{{"version":1,"end_ms":1,"name":{}0{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = share::decode(&share::encode_text(&json)).unwrap_err().to_string();
    assert!(e.contains("at most 64"), "{e}");
}

#[test]
fn a_short_link_cannot_ask_for_a_huge_world() {
    for (json, field) in [
        (
            r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":2147483647}]}"#,
            "topics[0].partitions",
        ),
        (
            r#"{"version":1,"end_ms":1000,"cluster":{"brokers":4000000000}}"#,
            "cluster.brokers",
        ),
        (r#"{"version":1,"end_ms":18446744073709551615}"#, "end_ms"),
        (
            r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":1}],"consumers":[{"name":"A","subscription":{"pattern":"((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))"}}]}"#,
            "consumers[0].subscription.pattern",
        ),
    ] {
        let l = share::encode_text(json);
        assert!(l.len() < 300);
        match share::decode(&l) {
            Err(ShareError::InvalidScenario(e)) => assert_eq!(e.path, field, "{e}"),
            other => panic!("{json}: {other:?}"),
        }
    }
}
