import Paint
import Strokes

/// How fast ink reaches the screen: pen samples drawn and presented as they arrive (the
/// immediate ink path, `lowLatency`), and the predicted tail drawn beyond the last sample, for
/// `horizon` seconds, until its horizon passes with no sample (a mouse that stopped sends none).
struct InkPath {
    let lowLatency: Bool
    /// Seconds the predicted tail reaches ahead (0: none).
    let horizon: Double
    private var predictor = Predictor()
    /// A predicted tail is shown, since this time (loop seconds).
    private(set) var predictedSince: Double?
    /// Immediate presents so far.
    private(set) var presents = 0

    init(lowLatency: Bool, predictMilliseconds: Double) {
        self.lowLatency = lowLatency
        horizon = max(0, predictMilliseconds) / 1000
    }

    /// A stroke starts: the predictor forgets the last one.
    mutating func strokeStarted() { predictor.reset() }

    /// A sample of the stroke at window time `t`, canvas point (x, y).
    mutating func sample(t: Double, x: Double, y: Double) {
        if horizon > 0 { predictor.add(t: t, x: x, y: y) }
    }

    /// After a wake-up that brought input: the tail the session shows (none unless `drawing`).
    mutating func predict(drawing: Bool, session: Session, now: Double) {
        guard horizon > 0 else { return }
        let predicted = drawing ? predictor.predict(horizon: horizon) : nil
        session.predict(predicted)
        predictedSince = predicted == nil ? nil : now
    }

    /// Before a frame: a tail whose horizon has passed with no sample goes.
    mutating func expire(session: Session, now: Double) {
        if let since = predictedSince, now - since >= horizon {
            session.predict(nil)
            predictedSince = nil
        }
    }

    mutating func presented() { presents += 1 }
}
