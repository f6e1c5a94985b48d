//! Latencies of steps that take turns, shared by the CLI's benches.

use std::time::{Duration, Instant};

/// Latencies of `iterations` calls of each step, after up to 20 warm-up rounds. The steps take
/// turns, call by call, so a slow stretch of the shared disk falls on all of them alike.
pub fn measure(iterations: usize, steps: &mut [&mut dyn FnMut()]) -> Vec<Vec<Duration>> {
    for _ in 0..iterations.min(20) {
        steps.iter_mut().for_each(|f| f());
    }
    let mut times = vec![Vec::with_capacity(iterations); steps.len()];
    for _ in 0..iterations {
        for (f, times) in steps.iter_mut().zip(&mut times) {
            let start = Instant::now();
            f();
            times.push(start.elapsed());
        }
    }
    times.iter_mut().for_each(|t| t.sort());
    times
}

/// One path's sorted latencies.
pub struct Row {
    pub name: &'static str,
    pub times: Vec<Duration>,
}

impl Row {
    pub fn percentile(&self, p: f64) -> Duration {
        let at = ((self.times.len() as f64 * p).ceil() as usize).clamp(1, self.times.len());
        self.times[at - 1]
    }

    pub fn median_ms(&self) -> f64 {
        self.percentile(0.5).as_secs_f64() * 1e3
    }

    pub fn per_second(&self) -> f64 {
        self.times.len() as f64 / self.times.iter().sum::<Duration>().as_secs_f64()
    }
}
