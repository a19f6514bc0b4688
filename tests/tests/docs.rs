//! The pages in `generated/docs/` (markdown pages, the index `README.md`, and the MediaWiki pages in `wiki/`) match
//! what `binspec docs` makes of `schemas/*.ksy` and the fixtures; the command itself, its `--check`, and the shape
//! of the Mermaid diagrams and links in the pages.
//! Refresh the pages with `BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test docs` (or `binspec docs` and
//! `binspec docs --wiki`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use binspec_cli::docs;
use binspec_tests::{repo, run};

const REFRESH: &str = "BINSPEC_UPDATE_DOCS=1 cargo test -p binspec-tests --test docs";

fn docs_dir() -> PathBuf {
    repo().join("generated/docs")
}

/// Every page `binspec docs` writes (the `--wiki` pages among them), at its place under `generated/docs`.
fn expected_pages() -> Vec<(PathBuf, String)> {
    let registry = binspec_formats::registry();
    let schemas = docs::load_schemas(&repo().join("schemas"))
        .unwrap_or_else(|e| panic!("the schemas do not compile: {e}"));
    assert!(!schemas.is_empty(), "no schemas found");
    let fixtures = repo().join("tests/fixtures");
    let out: Vec<(PathBuf, String)> = docs::pages(&registry, &schemas, Some(&fixtures), false)
        .into_iter()
        .map(|(p, t)| (docs_dir().join(p), t))
        .collect();
    // `binspec docs` writes the wiki pages too; `--wiki` alone writes the same ones.
    let wiki = docs::pages(&registry, &schemas, None, true);
    for (p, t) in &wiki {
        let at = docs_dir().join("wiki").join(p);
        assert!(
            out.iter().any(|(q, u)| *q == at && u == t),
            "`binspec docs` does not write {}",
            at.display()
        );
    }
    out
}

fn updating() -> bool {
    std::env::var("BINSPEC_UPDATE_DOCS").is_ok_and(|v| v == "1")
}

/// With `BINSPEC_UPDATE_DOCS=1`, writes every page (once, before any test reads them); else compares them.
fn refresh_or_compare() -> &'static Vec<String> {
    static STALE: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    STALE.get_or_init(|| {
        let update = updating();
        let pages = expected_pages();
        let mut stale = Vec::new();
        for (path, page) in &pages {
            if update {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).expect("create the docs folder");
                }
                if std::fs::read_to_string(path).ok().as_ref() != Some(page) {
                    std::fs::write(path, page)
                        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                }
                continue;
            }
            match std::fs::read_to_string(path) {
                Ok(old) if old == *page => {}
                Ok(_) => stale.push(format!("{} is out of date", path.display())),
                Err(e) => stale.push(format!("{} cannot be read: {e}", path.display())),
            }
        }
        stale
    })
}

#[test]
fn docs_are_up_to_date() {
    let pages = expected_pages();
    // The index, a markdown page and a wiki page per binary format.
    assert!(
        pages
            .iter()
            .any(|(p, _)| p.ends_with("generated/docs/README.md")),
        "no index among {pages:?}"
    );
    assert!(
        pages
            .iter()
            .any(|(p, _)| p.extension().is_some_and(|x| x == "wiki")),
        "no wiki page"
    );
    let stale = refresh_or_compare();
    assert!(
        stale.is_empty(),
        "{}\nrefresh with: {REFRESH}",
        stale.join("\n")
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file under a folder, by name relative to it.
fn read_tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    binspec_tests::files_under(dir)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p.strip_prefix(dir).unwrap().to_path_buf(), bytes)
        })
        .collect()
}

/// `binspec docs --check` (and `--wiki --check`) on the repository: nothing is stale.
#[test]
fn docs_check_passes_on_the_repository() {
    refresh_or_compare();
    let schemas = repo().join("schemas");
    for wiki in [false, true] {
        let mut args = vec!["docs", "--check", "--schemas", s(&schemas)];
        if wiki {
            args.push("--wiki");
        }
        let r = run(&args);
        assert_eq!(
            r.code, 0,
            "{args:?}: {}{}\nrefresh with: {REFRESH}",
            r.out, r.err
        );
        assert!(r.out.is_empty(), "{}", r.out);
    }
}

/// `--check` into an empty folder names every page as missing and exits 1, writing nothing.
#[test]
fn docs_check_reports_missing_pages() {
    let d = tempfile::tempdir().unwrap();
    let schemas = repo().join("schemas");
    let r = run(&[
        "docs",
        "--check",
        "--schemas",
        s(&schemas),
        "-o",
        s(d.path()),
    ]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.starts_with("error: "), "{}", r.err);
    for name in ["README.md", "sarc.md", "byml.md", "rsizetable.md"] {
        let line = format!("missing: {}", d.path().join(name).display());
        assert!(
            r.out.lines().any(|l| l == line),
            "no {line:?} in\n{}",
            r.out
        );
    }
    assert!(read_tree(d.path()).is_empty(), "--check wrote files");
}

/// `binspec docs -o DIR`: a page per binary format and an index that lists every format of the registry with its
/// status; `--wiki -o DIR` the wiki pages; both byte-identical run to run.
#[test]
fn docs_writes_the_index_and_pages() {
    let schemas = repo().join("schemas");
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for d in [&a, &b] {
        let r = run(&["docs", "--schemas", s(&schemas), "-o", s(d.path())]);
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let r = run(&[
            "docs",
            "--wiki",
            "--schemas",
            s(&schemas),
            "-o",
            s(&d.path().join("wiki")),
        ]);
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    }
    let tree = read_tree(a.path());
    assert_eq!(tree, read_tree(b.path()), "two runs differ");
    let index = String::from_utf8(tree[Path::new("README.md")].clone()).unwrap();
    let registry = binspec_formats::registry();
    assert!(!registry.is_empty());
    for f in &registry {
        let row = index
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", f.id())))
            .unwrap_or_else(|| panic!("no row for {} in\n{index}", f.id()));
        // Reads, writes, round-trips: "N of M files", the same M, and every bundled fixture round-trips.
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        let status = &cells[cells.len() - 3..];
        let counts: Vec<(usize, usize)> = status
            .iter()
            .map(|c| {
                let (n, rest) = c
                    .split_once(" of ")
                    .unwrap_or_else(|| panic!("{c:?} in {row}"));
                let m = rest.split(' ').next().unwrap();
                (n.parse().unwrap(), m.parse().unwrap())
            })
            .collect();
        let total = counts[0].1;
        assert!(total > 0, "{row}");
        for (n, m) in &counts {
            assert_eq!((*n, *m), (total, total), "{row}");
        }
        // The page it links to exists (a text format's hand-written page is in the repository).
        let page = cells[2]
            .split("](")
            .nth(1)
            .and_then(|x| x.split(')').next())
            .unwrap_or_else(|| panic!("no link in {row}"));
        assert!(
            tree.contains_key(Path::new(page)) || docs_dir().join(page).is_file(),
            "{page} of {row}"
        );
    }
    for id in ["sarc", "byml", "rsizetable"] {
        assert!(tree.contains_key(Path::new(&format!("{id}.md"))), "{id}.md");
        let wiki =
            String::from_utf8(tree[&PathBuf::from(format!("wiki/{id}.wiki"))].clone()).unwrap();
        assert!(wiki.contains("{| class=\"wikitable\"\n"), "{wiki}");
        assert!(
            wiki.contains("\n!Offset\n!Size\n!Type\n!Description\n|-\n"),
            "{wiki}"
        );
    }
}

/// A Mermaid node: its id's number and its name.
type Node<'a> = (usize, &'a str);

/// A node of a Mermaid edge: `tN["name"]`, with no quote in the name.
fn node(s: &str) -> Option<Node<'_>> {
    let rest = s.strip_prefix('t')?;
    let (n, rest) = rest.split_once("[\"")?;
    let name = rest.strip_suffix("\"]")?;
    let n: usize = n.parse().ok()?;
    (!name.is_empty() && !name.contains('"')).then_some((n, name))
}

/// An edge line: `  tN["name"] -->|"label"| tM["name"]`, with no quote in the label.
fn edge(line: &str) -> Option<(Node<'_>, &str, Node<'_>)> {
    let l = line.strip_prefix("  ")?;
    let (from, rest) = l.split_once(" -->|\"")?;
    let (label, to) = rest.split_once("\"| ")?;
    if label.is_empty() || label.contains('"') {
        return None;
    }
    Some((node(from)?, label, node(to)?))
}

#[test]
fn edge_parser_rejects_bad_lines() {
    assert!(edge("  t0[\"a\"] -->|\"x, y (instance)\"| t1[\"b\"]").is_some());
    for bad in [
        "t0[\"a\"] -->|\"x\"| t1[\"b\"]",
        "  t0[\"a\"] -->|\"x\"y\"| t1[\"b\"]",
        "  t0[\"a\"] --> t1[\"b\"]",
        "  tx[\"a\"] -->|\"x\"| t1[\"b\"]",
        "  t0[\"a\"] -->|\"x\"| t1[\"b\"",
        "  t0[a] -->|\"x\"| t1[\"b\"]",
    ] {
        assert!(edge(bad).is_none(), "{bad}");
    }
}

/// Every Mermaid block in the markdown pages is well-formed: ```` ```mermaid ````, `graph TD`, then edge lines
/// only, each node id always with the same name, and a closing fence. Pages of formats with several types have one.
#[test]
fn mermaid_diagrams_are_well_formed() {
    refresh_or_compare();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(docs_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let mut blocks = 0;
    for p in &pages {
        let text = std::fs::read_to_string(p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        let mut in_page = 0;
        while i < lines.len() {
            if !lines[i].starts_with("```mermaid") {
                i += 1;
                continue;
            }
            assert_eq!(lines[i], "```mermaid", "{}:{}", p.display(), i + 1);
            assert_eq!(
                lines.get(i + 1).copied(),
                Some("graph TD"),
                "{}:{}",
                p.display(),
                i + 2
            );
            let mut names: BTreeMap<usize, &str> = BTreeMap::new();
            let mut j = i + 2;
            let mut edges = 0;
            loop {
                let l = lines
                    .get(j)
                    .unwrap_or_else(|| panic!("{}: unclosed mermaid block", p.display()));
                if *l == "```" {
                    break;
                }
                let (a, _, b) =
                    edge(l).unwrap_or_else(|| panic!("{}:{}: bad edge {l:?}", p.display(), j + 1));
                for (n, name) in [a, b] {
                    let prev = names.entry(n).or_insert(name);
                    assert_eq!(*prev, name, "{}:{}: t{n} has two names", p.display(), j + 1);
                }
                edges += 1;
                j += 1;
            }
            assert!(edges > 0, "{}: empty diagram", p.display());
            blocks += 1;
            in_page += 1;
            i = j + 1;
        }
        let name = p.file_name().unwrap().to_string_lossy();
        if ["sarc.md", "byml.md", "rsizetable.md"].contains(&name.as_ref()) {
            assert_eq!(in_page, 1, "{}", p.display());
        }
    }
    assert!(blocks >= 3, "{blocks} diagrams");
}

/// Every `](#anchor)` link in a generated page leads to an anchor of the same page.
#[test]
fn cross_links_resolve() {
    let pages = expected_pages();
    let mut links = 0;
    for (path, text) in pages
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|x| x == "md"))
    {
        let anchors: Vec<&str> = text
            .split("<a id=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        for part in text.split("](#").skip(1) {
            let target = part.split(')').next().unwrap();
            assert!(
                anchors.contains(&target),
                "{}: link to #{target}, which is not on the page",
                path.display()
            );
            links += 1;
        }
    }
    assert!(links > 20, "only {links} links");
}
