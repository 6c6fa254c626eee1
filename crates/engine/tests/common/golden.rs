//! Golden files: a test's text output compared exactly with a committed file.

use std::path::PathBuf;

/// Compares `got` with `tests/<dir>/<name>.txt`. With `UPDATE_GOLDEN` set it writes the file
/// instead (review the diff before committing); otherwise a missing file fails, and so does any
/// difference.
pub fn check_golden(dir: &str, name: &str, got: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir)
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).expect("write golden file");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden {}; run with UPDATE_GOLDEN=1 and review it",
            path.display()
        )
    });
    if got != want {
        let first = got.lines().zip(want.lines()).position(|(a, b)| a != b);
        let shown = first.map(|i| {
            let line = |text: &str| text.lines().nth(i).unwrap_or_default().to_owned();
            format!("\n  expected: {}\n  actual:   {}", line(&want), line(got))
        });
        panic!(
            "{name}: trace differs from {} (first difference at line {:?}; {} expected vs {} actual lines); rerun with UPDATE_GOLDEN=1 if intended{}",
            path.display(),
            first.map(|i| i + 1),
            want.lines().count(),
            got.lines().count(),
            shown.unwrap_or_default()
        );
    }
}
