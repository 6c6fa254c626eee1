//! Numbers as text with a fixed number of decimals, by integer arithmetic.
//!
//! Every float the UI shows or writes into an SVG attribute goes through [`fixed`] or [`short`],
//! not through `{}` or `{:.N}`: core's float formatting (about 20 KB of wasm; serde's error
//! messages keep it in the bundle) is then never called on the way to the first render, which
//! compiles each wasm function it calls.

/// `base` to the power `exp`, `sin` and `cos` (of radians): the browser's `Math` in the wasm, so
/// that the bundle does not carry libm's code for them (about 10 KB); Rust's natively (the
/// build's prerender, the tests). They only place things on screen.
#[cfg(target_arch = "wasm32")]
pub use js_sys::Math::{cos, pow, sin};

/// `base` to the power `exp` (see the wasm version).
#[cfg(not(target_arch = "wasm32"))]
pub fn pow(base: f64, exp: f64) -> f64 {
    base.powf(exp)
}

/// The sine of `a` radians (see the wasm version).
#[cfg(not(target_arch = "wasm32"))]
pub fn sin(a: f64) -> f64 {
    a.sin()
}

/// The cosine of `a` radians (see the wasm version).
#[cfg(not(target_arch = "wasm32"))]
pub fn cos(a: f64) -> f64 {
    a.cos()
}

/// `v` with exactly `decimals` digits after the point (at most 6), rounded half away from zero:
/// `fixed(2.345, 1)` is `"2.3"`, `fixed(-0.04, 1)` is `"0.0"`. Not finite: zero.
pub fn fixed(v: f64, decimals: u32) -> String {
    let (negative, whole, frac) = split(v, decimals);
    let sign = if negative { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
    }
}

/// Like [`fixed`], without trailing zeros (nor a trailing point): `short(2.50, 2)` is `"2.5"`,
/// `short(262.0, 1)` is `"262"`.
pub fn short(v: f64, decimals: u32) -> String {
    let s = fixed(v, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// Sign, whole part and the `decimals` digits after the point, as integers.
fn split(v: f64, decimals: u32) -> (bool, u64, u64) {
    let decimals = decimals.min(6);
    let scale = 10u64.pow(decimals);
    if !v.is_finite() {
        return (false, 0, 0);
    }
    // Past 2^53 a float has no fractional digits anyway; the cast saturates beyond u64.
    let n = (v.abs() * scale as f64).round() as u64;
    (v < 0.0 && n != 0, n / scale, n % scale)
}

#[cfg(test)]
mod tests {
    use super::{fixed, short};

    #[test]
    fn fixed_matches_core_formatting_away_from_ties() {
        for &v in &[0.0, 1.0, 2.34, -2.36, 99.96, 0.049, 1234.5678, -0.04, 1e9 + 0.3] {
            for d in 0..=3 {
                let expected = format!("{v:.prec$}", prec = d as usize);
                // Core prints "-0.0" for a negative number that rounds to zero; we print "0.0".
                let expected = if expected
                    .trim_start_matches('-')
                    .chars()
                    .all(|c| c == '0' || c == '.')
                {
                    expected.trim_start_matches('-').to_owned()
                } else {
                    expected
                };
                assert_eq!(fixed(v, d), expected, "{v} with {d} decimals");
            }
        }
    }

    #[test]
    fn ties_round_away_from_zero_and_non_finite_is_zero() {
        assert_eq!(fixed(0.5, 0), "1");
        assert_eq!(fixed(-1.5, 0), "-2");
        assert_eq!(fixed(f64::NAN, 2), "0.00");
        assert_eq!(fixed(f64::INFINITY, 0), "0");
    }

    #[test]
    fn short_drops_trailing_zeros() {
        assert_eq!(short(262.0, 1), "262");
        assert_eq!(short(2.5, 2), "2.5");
        assert_eq!(short(0.25, 2), "0.25");
        assert_eq!(short(10.0, 0), "10");
        assert_eq!(short(-3.04, 1), "-3");
    }
}
