// A bound envelope cannot be made except by `bind`: its fields are private.
use specmint::task_envelope::binding::BoundTaskEnvelope;
use specmint::task_envelope::TaskEnvelope;

fn forge(envelope: TaskEnvelope) -> BoundTaskEnvelope {
    BoundTaskEnvelope { envelope }
}

fn main() {}
