//! BFRES's regions after the string pool laid out by the writer: the GPU region, the runtime memory pool, the
//! embedded files and the relocation table are items of the file's layout, so names that outgrow the room before
//! the GPU region move everything after them, with every pointer to them, the memory pool info's pointer, the
//! header's relocation table offset and each relocation table section's region following. On Super Mario
//! Odyssey's AirCurrent.bfres (skipped with a message when the corpus is absent).

use binspec_formats::bfres::Bfres;
use binspec_formats::bfres_names::Named;
use binspec_runtime::Format as _;

use binspec_tests::{nn_util_relocation_sections, repo};

fn u32_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(b[at..at + 4].try_into().unwrap()))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// Version 8's header: the runtime memory pool pointer at 0x88, the memory pool info pointer at 0x90 (its GPU
/// region's size at +4 and pointer at +8); the relocation table's offset at 0x18.
fn regions(b: &[u8]) -> (u64, u64, u64, u64) {
    let info = u64_at(b, 0x90) as usize;
    (
        u64_at(b, info + 8),
        u32_at(b, info + 4),
        u64_at(b, 0x88),
        u32_at(b, 0x18),
    )
}

#[test]
fn names_past_the_gpu_regions_padding_move_what_follows() {
    let path = repo().join("../shared/corpus/real/bfres/AirCurrent.bfres");
    let Ok(bytes) = std::fs::read(&path) else {
        return eprintln!("skipped: {} is absent", path.display());
    };
    let (gpu, gpu_len, runtime, table) = regions(&bytes);
    assert_eq!(
        (gpu, gpu_len, runtime, table),
        (0x5000, 0x1000, 0x6000, 0x6120)
    );
    let mut m = Bfres::from_binary(&bytes).unwrap();
    let before = m.positions(0, 0).unwrap();
    // 0x72e bytes of zeros before the GPU region: a name of 4000 bytes does not fit there.
    let long = format!("Shape_{}", "x".repeat(4000));
    m.rename(
        Named::Shape("AirCurrent"),
        "nw4f_root__Default_Material__0",
        &long,
    )
    .unwrap();
    let out = m.to_binary().unwrap();
    let (gpu2, gpu_len2, runtime2, table2) = regions(&out);
    assert_eq!(
        gpu2, 0x6000,
        "the GPU region, at the next multiple of 0x1000"
    );
    assert_eq!(gpu_len2, 0x1000);
    assert_eq!(&out[gpu2 as usize..][..0x1000], &bytes[0x5000..0x6000]);
    assert_eq!(
        runtime2, 0x7000,
        "the runtime memory pool, after the GPU region"
    );
    assert_eq!(table2, 0x7120, "the relocation table, after it");
    // Every vertex set's and mesh's runtime memory pool pointer follows the header's.
    let runtime_ptrs = out
        .windows(8)
        .filter(|w| u64::from_le_bytes((*w).try_into().unwrap()) == runtime2)
        .count();
    assert_eq!(
        runtime_ptrs, 3,
        "the header's, the vertex set's and the mesh's"
    );
    // The relocation table's sections: the file to the end of the string pool, the index buffers, the vertex
    // buffers, the runtime memory pool, the embedded files (none: empty, at the table).
    let sections = nn_util_relocation_sections(&out);
    assert_eq!(
        sections[1..],
        [
            [0x6000, 0x90],
            [0x6090, 0xf70],
            [0x7000, 0x120],
            [0x7120, 0]
        ]
    );
    let strings_end = sections[0][1];
    assert!(
        strings_end > 0x5000 && strings_end <= 0x6000,
        "{strings_end:#x}"
    );
    // It reads back with the new name, the same vertices, and writes the same bytes.
    let back = Bfres::from_binary(&out).unwrap();
    assert_eq!(back.positions(0, 0).unwrap(), before);
    assert!(back
        .summary_lines()
        .iter()
        .any(|l| l.contains("Shape_xxxx")));
    assert_eq!(back.to_binary().unwrap(), out);
}
