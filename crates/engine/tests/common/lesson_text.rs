//! The golden text of a lesson, shared by `lesson_presets.rs` (native) and `wasm.rs` (wasm32): the
//! trace, then each resolved step with its console answer (if any) and its question's answer.

use rebalance_engine::console::{self, KafkaVersion};
use rebalance_engine::lesson::{check_console, Lesson, ResolvedStep};
use rebalance_engine::{Scenario, Session, Simulation};

pub fn golden_text(scenario: &Scenario, sim: &Simulation, lesson: &Lesson, steps: &[ResolvedStep]) -> String {
    let mut out = sim.trace_text(false);
    out.push_str("## lesson steps\n");
    for s in steps {
        out.push_str(&format!("## {} {} {}\n", s.at, s.id, s.line));
        // A step's console command, answered on the world as the step shows it.
        if let Some(line) = &lesson.steps[s.index].console {
            let words = check_console(line).unwrap();
            let mut session = Session::new(scenario.clone()).unwrap();
            session.run_to_event(s.seq);
            let answer = console::run(&mut session, &words, KafkaVersion::NEWEST);
            out.push_str(&format!("##   $ {line}\n"));
            for l in answer.stdout.lines() {
                out.push_str(&format!("##   | {l}\n"));
            }
            for l in answer.stderr.lines() {
                out.push_str(&format!("##   ! {l}\n"));
            }
            out.push_str(&format!("##   exit {}\n", answer.exit_code));
        }
        if let Some(r) = &s.reveal {
            let p = lesson.steps[s.index].predict.as_ref().unwrap();
            out.push_str(&format!(
                "##   answer {} = choice {} ({})\n",
                r.value, r.correct, p.choices[r.correct].label.en
            ));
        }
    }
    out
}
