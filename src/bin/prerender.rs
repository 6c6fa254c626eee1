//! The release build's last step, run natively by Trunk's post-build hook (`scripts/post-build.sh`)
//! on Trunk's staging folder:
//!
//! 1. renders the app as it looks at t=0, in English and in Chinese, with Yew's server renderer,
//!    and puts both into `index.html` in place of its `<!-- first view -->` comment, with a few
//!    lines of inline script that show the Chinese view to a Chinese browser (see
//!    `rebalance_playground::prerender`);
//! 2. writes the service worker, `static/sw.js`, into the folder with the list of every file
//!    there and a version that is a hash of all of them, and registers it from `index.html`: a new
//!    release, whose wasm and glue have new hashed names, so has a new worker that replaces the
//!    cached files.
//!
//! Usage: `prerender <staging folder> [<static/sw.js>]`.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Only ever run natively, by the build.
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), sw) = (args.next(), args.next()) else {
        eprintln!("usage: prerender <staging folder> [<static/sw.js>]");
        return std::process::ExitCode::from(2);
    };
    let sw = sw.map_or_else(|| std::path::PathBuf::from("static/sw.js"), Into::into);
    match native::run(std::path::Path::new(&dir), &sw) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prerender: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::fs;
    use std::path::{Path, PathBuf};

    use rebalance_playground::i18n::Lang;
    use rebalance_playground::prerender::{
        EARLY_INPUT, EARLY_INPUT_LIMIT, LANG_KEY, PRESENTATION_KEY, ROOT_ID, TOOK_OVER_EVENT, WAITING_CLASS,
        ZH_TEMPLATE_ID,
    };
    use rebalance_playground::{App, AppProps};

    /// Where the first view goes in `index.html`.
    const MARKER: &str = "<!-- first view -->";
    /// The service worker's lines the build fills in.
    const SW_VERSION: &str = "const VERSION = 'dev';";
    const SW_FILES: &str = "const FILES = [];";
    /// The service worker's name in the built folder.
    const SW_NAME: &str = "sw.js";

    pub fn run(dir: &Path, sw_source: &Path) -> Result<(), String> {
        let index = dir.join("index.html");
        let html = fs::read_to_string(&index).map_err(|e| format!("{}: {e}", index.display()))?;
        if html.matches(MARKER).count() != 1 {
            return Err(format!(
                "{}: expected the comment {MARKER} exactly once, found it {} times",
                index.display(),
                html.matches(MARKER).count()
            ));
        }
        let en = render(Lang::En)?;
        let zh = render(Lang::Zh)?;
        let (before, after) = inline_scripts();
        let first_view = format!(
            "<script>{before}</script>\n    <div id=\"{ROOT_ID}\">{en}</div>\n    <template id=\"{ZH_TEMPLATE_ID}\">{zh}</template>\n    <script>{after}</script>"
        );
        fs::write(&index, html.replace(MARKER, &first_view))
            .map_err(|e| format!("{}: {e}", index.display()))?;

        // The worker is written last: its version covers the final index.html.
        let template = fs::read_to_string(sw_source).map_err(|e| format!("{}: {e}", sw_source.display()))?;
        let mut files = Vec::new();
        list(dir, dir, &mut files)?;
        files.retain(|f| f != SW_NAME);
        files.sort();
        let mut hash = Fnv::default();
        for f in &files {
            hash.write(f.as_bytes());
            hash.write(&[0]);
            let bytes = fs::read(dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
            hash.write(&(bytes.len() as u64).to_le_bytes());
            hash.write(&bytes);
        }
        let version = format!("{:016x}", hash.0);
        let list = files
            .iter()
            .map(|f| format!("{f:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut sw = template.clone();
        for (line, with) in [
            (SW_VERSION, format!("const VERSION = '{version}';")),
            (SW_FILES, format!("const FILES = [{list}];")),
        ] {
            if sw.matches(line).count() != 1 {
                return Err(format!(
                    "{}: expected the line `{line}` exactly once",
                    sw_source.display()
                ));
            }
            sw = sw.replace(line, &with);
        }
        fs::write(dir.join(SW_NAME), sw).map_err(|e| format!("{SW_NAME}: {e}"))?;
        println!(
            "prerender: first view in English ({} bytes) and Chinese ({} bytes); service worker {version} caches {} files",
            en.len(),
            zh.len(),
            files.len()
        );
        Ok(())
    }

    /// The app at t=0 in `lang`, as HTML.
    fn render(lang: Lang) -> Result<String, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|e| format!("a runtime for the server renderer: {e}"))?;
        let html = runtime.block_on(
            yew::ServerRenderer::<App>::with_props(move || AppProps { lang: Some(lang) })
                .hydratable(false)
                .render(),
        );
        if html.contains("<script") {
            return Err(format!("the {lang:?} first view holds a <script>"));
        }
        Ok(html)
    }

    /// The inline scripts around the first view. The one before it keeps the first view's forms
    /// from submitting (and reloading the page) until the app takes over, keeps the clicks on the
    /// first view's buttons and the keys pressed with nothing focused for the app to replay
    /// (`rebalance_playground::prerender::EarlyInput`), marking a clicked button as waiting, and,
    /// for a browser whose saved choice or language is Chinese (the rule of `Lang::from_tag`),
    /// hides the English view (`html.first-view-zh` in the stylesheet) before it can be painted.
    /// The one after it puts the Chinese view in its place, turns on presentation mode if it was
    /// left on, and registers the service worker once the app has taken over and the page is idle
    /// ([`TOOK_OVER_EVENT`]), so that its downloads do not compete with the app's start.
    fn inline_scripts() -> (String, String) {
        let zh = Lang::Zh;
        let before = format!(
            "(function(){{var d=document,s=null;\
             d.addEventListener('submit',function(e){{var p=d.getElementById('{ROOT_ID}');if(p&&p.contains(e.target))e.preventDefault()}},true);\
             var q=window.{EARLY_INPUT}=[],keep=function(x){{if(q.length<{EARLY_INPUT_LIMIT})q.push(x)}};\
             d.addEventListener('click',function(e){{var p=d.getElementById('{ROOT_ID}'),b=e.target&&e.target.closest?e.target.closest('button'):null;if(!p||!b||!p.contains(b))return;e.preventDefault();\
             var w=[],n=b;while(n&&n!==p){{w.unshift(Array.prototype.indexOf.call(n.parentElement.children,n));n=n.parentElement}}keep('c'+w.join('.'));b.classList.add('{WAITING_CLASS}')}},true);\
             d.addEventListener('keydown',function(e){{var t=e.target;if(!d.getElementById('{ROOT_ID}')||e.ctrlKey||e.metaKey||e.altKey||e.repeat||typeof e.key!=='string'||(t&&t!==d.body&&t!==d.documentElement))return;keep('k'+(e.shiftKey?'S':'-')+e.key)}},true);\
             try{{s=window.localStorage}}catch(e){{}}\
             var t=(s&&s.getItem('{LANG_KEY}'))||navigator.language||'';\
             if(/^zh/i.test(t.trim())){{d.documentElement.classList.add('first-view-zh');d.documentElement.lang={:?};d.title={:?}}}}})();",
            zh.tag(),
            zh.strings().app_title,
        );
        let after = format!(
            "(function(){{var d=document,r=d.getElementById('{ROOT_ID}'),s=null;try{{s=window.localStorage}}catch(e){{}}\
             if(d.documentElement.classList.contains('first-view-zh')){{r.replaceChildren(d.getElementById('{ZH_TEMPLATE_ID}').content.cloneNode(true));r.classList.add('is-zh')}}\
             var a=r.querySelector('.app');if(a&&s&&s.getItem('{PRESENTATION_KEY}')==='on')a.classList.add('is-presenting');\
             if('serviceWorker'in navigator)window.addEventListener('{TOOK_OVER_EVENT}',function(){{var g=function(){{navigator.serviceWorker.register('{SW_NAME}').catch(function(){{}})}};if(window.requestIdleCallback)requestIdleCallback(g,{{timeout:2000}});else setTimeout(g,0)}},{{once:true}})}})();"
        );
        (before, after)
    }

    /// Every file under `dir`, as a path relative to `root` with `/` between its parts.
    fn list(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
        let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path: PathBuf = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.is_dir() {
                list(root, &path, out)?;
            } else {
                let rel = path.strip_prefix(root).map_err(|e| e.to_string())?;
                let parts: Vec<_> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                out.push(parts.join("/"));
            }
        }
        Ok(())
    }

    /// FNV-1a, 64 bits: a stable hash of the release's files (a version, not a security check).
    struct Fnv(u64);

    impl Default for Fnv {
        fn default() -> Self {
            Self(0xcbf2_9ce4_8422_2325)
        }
    }

    impl Fnv {
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 ^= u64::from(*b);
                self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
}
