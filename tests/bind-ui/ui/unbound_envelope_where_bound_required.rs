// Recording a grant takes a bound envelope; an unbound one has granted nothing.
use specmint::task_envelope::lifecycle::TaskStore;
use specmint::task_envelope::TaskEnvelope;

fn record(store: &mut TaskStore, envelope: &TaskEnvelope) {
    let _ = store.record_binding(envelope);
}

fn main() {}
