// Temporary profiling driver (not committed).
use binspec_formats::sarc::Sarc;
use binspec_formats::Format;
use roead::sarc::SarcWriter;
use std::time::Instant;
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut w = SarcWriter::new(roead::Endian::Little);
    for i in 0..3000 {
        let name = format!("Sound/Resource/{:05}_{:x}.bgyml", i, next() % 0xffff);
        let len = 16 + (next() % 8192) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        w.add_file(name.as_str(), data);
    }
    let bin = w.to_binary();
    let shared = binspec_formats::Bytes::from(bin.clone());
    let s = Sarc::from_bytes(shared.clone()).unwrap();
    let rs = roead::sarc::Sarc::new(bin.as_slice()).unwrap();
    let mut rw0 = SarcWriter::from_sarc(&rs);
    let rw = std::cell::RefCell::new(&mut rw0);
    let mut acc = 0usize;
    let mut best = std::time::Duration::MAX;
    let n = 30;
    for _ in 0..15 {
        let t = Instant::now();
        for _ in 0..n {
            match mode.as_str() {
                "rwrite" => {
                    let r = roead::sarc::Sarc::new(bin.as_slice()).unwrap();
                    let mut w = SarcWriter::from_sarc(&r);
                    acc += w.to_binary().len();
                }
                "rwrite2" => {
                    acc += rw.borrow_mut().to_binary().len();
                }
                "rread" => {
                    let r = roead::sarc::Sarc::new(bin.as_slice()).unwrap();
                    for f in r.files() {
                        acc += f.name().unwrap_or_default().len() + f.data().len();
                    }
                }
                "read" => {
                    let s = Sarc::from_bytes(shared.clone()).unwrap();
                    acc += s.sfat.entries.len();
                }
                _ => {
                    acc += s.to_binary().unwrap().len();
                }
            }
        }
        best = best.min(t.elapsed() / n);
    }
    println!("{mode}: {:?} per iteration, best batch ({acc})", best);
}
