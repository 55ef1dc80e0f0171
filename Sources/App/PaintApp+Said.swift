import Events

/// What the status says of the commands a frame played, where they did less than asked or
/// something worth saying (the frame fitted to the ink, and its size; an undo or redo that
/// moved the frame, and where to).
extension PaintApp {
    func sayWhatCommandsDid(_ played: [SessionEvent]) {
        if session.document.layers.count >= LayerOp.maxLayers, played.contains(where: { if case .command(.layer(.new)) = $0 { true } else { false } }) {
            statusLine.message = "\(LayerOp.maxLayers) layers: the most a document holds (Insert makes no more)"
        }
        let framing = played.contains { event in
            switch event {
            case .command(.frame), .command(.undo), .command(.redo): true
            default: false
            }
        }
        if framing, let change = session.frameChange {
            statusLine.message = change.description
            // The thumbnails show the frame.
            widgets?.layers?.needsRows = true
        }
    }
}
