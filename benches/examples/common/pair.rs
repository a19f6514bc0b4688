//! What the profiling examples share: timing ours against tomolib, alone or in alternating rounds.

use std::time::Instant;

/// Runs `which` ("pair": 15 rounds in which ours and tomolib alternate, printing the median ratio and times;
/// "tomolib" or anything else: one side alone) with `n` calls per measurement, naming the operation `op`.
pub fn run(op: &str, which: &str, n: usize, run_ours: &dyn Fn(), run_theirs: &dyn Fn()) {
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_secs_f64() / n as f64
    };
    match which {
        "pair" => {
            let mut rounds: Vec<(f64, f64)> = (0..15)
                .map(|r| {
                    if r % 2 == 0 {
                        let o = time(run_ours);
                        (o, time(run_theirs))
                    } else {
                        let t = time(run_theirs);
                        (time(run_ours), t)
                    }
                })
                .collect();
            let mut ratios: Vec<f64> = rounds.iter().map(|(o, t)| o / t).collect();
            ratios.sort_by(f64::total_cmp);
            rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
            let ours_ms = rounds[7].0 * 1e3;
            rounds.sort_by(|a, b| a.1.total_cmp(&b.1));
            let theirs_ms = rounds[7].1 * 1e3;
            println!(
                "{op}: ours/tomolib per round: median {:.2} (min {:.2}, max {:.2}); ours {ours_ms:.3} ms, tomolib \
                 {theirs_ms:.3} ms (medians of 15 rounds of {n})",
                ratios[7], ratios[0], ratios[14]
            );
        }
        "tomolib" => println!("{op}: tomolib {:.3} ms", time(run_theirs) * 1e3),
        _ => println!("{op}: ours {:.3} ms", time(run_ours) * 1e3),
    }
}
