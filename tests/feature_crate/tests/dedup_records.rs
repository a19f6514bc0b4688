//! `tests/feature_schemas/dedup_records.ksy`: a deduplicating pool of records (length-prefixed strings, as
//! nn::util's NW strings). Equal strings are stored once, the pool keeps the strings the file held in order, a
//! string the model refers to that the pool does not hold is added after them, and the count is derived.

mod agree;
use agree::Agreed as _;

use binspec_feature_schemas::dedup_records::{DedupRecords, NameRef, Pstr};

#[rustfmt::skip]
const FILE: [u8; 26] = [
    b'D', b'D', b'R', b'C',
    3,                          // name_count
    9,                          // pool_ofs
    10, 16, 10,                 // the names: "ab", "xyz", "ab" again
    3,                          // the pool's count
    2, 0, b'a', b'b', 0, 0,     // "ab", its zero byte and a byte of padding
    3, 0, b'x', b'y', b'z', 0,  // "xyz"
    1, 0, b'q', 0,              // "q", which nothing refers to
];

fn read(bytes: &[u8]) -> DedupRecords {
    agree::read::<DedupRecords>(bytes).unwrap_or_else(|e| panic!("decode: {e}"))
}

fn write(m: &DedupRecords) -> Vec<u8> {
    m.to_binary_agreed()
        .unwrap_or_else(|e| panic!("encode: {e}"))
}

fn names(m: &DedupRecords) -> Vec<&str> {
    m.names.iter().map(|n| &*n.name.data).collect()
}

fn pstr(s: &str) -> Pstr {
    Pstr {
        data: s.into(),
        ..Pstr::default()
    }
}

#[test]
fn equal_strings_share_one_record_and_the_file_writes_back() {
    let m = read(&FILE);
    assert_eq!(names(&m), ["ab", "xyz", "ab"]);
    let pool: Vec<&str> = m.pool.strings.iter().map(|s| &*s.data).collect();
    assert_eq!(pool, ["ab", "xyz", "q"]);
    assert_eq!(write(&m), FILE);
}

#[test]
fn a_new_string_goes_after_the_listed_ones_and_counts() {
    let mut m = read(&FILE);
    m.names[1].name = pstr("hello");
    let out = write(&m);
    // "xyz" stays (the pool lists it); "hello" follows "q", and the count is 4.
    assert_eq!(out[9], 4);
    assert_eq!(&out[6..9], [10, 26, 10]);
    assert_eq!(&out[26..], [5, 0, b'h', b'e', b'l', b'l', b'o', 0]);
    let back = read(&out);
    assert_eq!(names(&back), ["ab", "hello", "ab"]);
    assert_eq!(back.pool.strings.len(), 4);
    // A name that needs padding: the writer pads it (the model holds none).
    m.names[1].name = pstr("four");
    let out = write(&m);
    assert_eq!(&out[26..], [4, 0, b'f', b'o', b'u', b'r', 0, 0]);
    assert_eq!(names(&read(&out)), ["ab", "four", "ab"]);
}

#[test]
fn a_new_model_lists_its_strings_in_the_order_the_writer_meets_them() {
    let m = DedupRecords {
        names: ["b", "a", "b"].map(|s| NameRef { name: pstr(s) }).to_vec(),
        ..DedupRecords::default()
    };
    let out = write(&m);
    #[rustfmt::skip]
    let want = [
        b'D', b'D', b'R', b'C', 3, 9, 10, 14, 10,
        2,
        1, 0, b'b', 0,
        1, 0, b'a', 0,
    ];
    assert_eq!(out, want);
    assert_eq!(names(&read(&out)), ["b", "a", "b"]);
}

/// A pool that lists one string twice, a name pointing at the second copy (found by fuzzing BFRES, whose string
/// pool had its strings zeroed): the writer points every reference to the string at its first copy and keeps both
/// listed, and the file it makes reads back as the same model (the reader takes such a file as relaid and reads
/// it as the file the writer makes of it; `ReadPools::listed_records`).
#[test]
fn a_string_listed_twice_is_pointed_at_once() {
    #[rustfmt::skip]
    let file: [u8; 21] = [
        b'D', b'D', b'R', b'C',
        2,                          // name_count
        8,                          // pool_ofs
        9, 15,                      // the names: "ab" and the second "ab"
        2,                          // the pool's count
        2, 0, b'a', b'b', 0, 0,     // "ab"
        2, 0, b'a', b'b', 0, 0,     // "ab" again
    ];
    let m = read(&file);
    assert_eq!(names(&m), ["ab", "ab"]);
    assert_eq!(m.pool.strings.len(), 2);
    let out = write(&m);
    assert_eq!(&out[6..8], [9, 9], "both names point at the first copy");
    assert_eq!(out[9..], file[9..], "both copies stay listed");
    assert_eq!(read(&out), m);
}
