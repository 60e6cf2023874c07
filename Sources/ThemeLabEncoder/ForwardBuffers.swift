/// One worker's activations for `TransformerEncoder.pooled`, kept from layer to layer and batch to batch and grown only
/// when a batch has more rows than any before: no layer allocates or first touches its activations (attention's scratch
/// for one sentence, scores and packed keys and values, is still allocated per group of sentences, a few kilobytes).
/// Each buffer holds `capacity` rows: the hidden states `x` (also the layer's output), the stacked Q|K|V, the attention
/// context, the attention block's output `a` and the feed-forward layer's inner activations. Not shared between threads.
package final class ForwardBuffers {
    package let shape: EncoderShape
    package private(set) var capacity = 0
    package private(set) var x, qkv, context, a, inner: UnsafeMutablePointer<Float>

    package init(_ shape: EncoderShape) {
        self.shape = shape
        (x, qkv, context, a, inner) = Self.allocate(rows: 0, shape)
    }

    deinit { release() }

    /// Room for `rows` rows in every buffer (the contents are not kept when it grows).
    package func reserve(rows: Int) {
        guard rows > capacity else { return }
        release()
        (x, qkv, context, a, inner) = Self.allocate(rows: rows, shape)
        capacity = rows
    }

    private typealias Buffer = UnsafeMutablePointer<Float>

    private static func allocate(rows: Int, _ s: EncoderShape) -> (Buffer, Buffer, Buffer, Buffer, Buffer) {
        let h = rows * s.hidden
        func buffer(_ count: Int) -> Buffer { .allocate(capacity: count) }
        return (buffer(h), buffer(3 * h), buffer(h), buffer(h), buffer(rows * s.intermediate))
    }

    private func release() {
        for buffer in [x, qkv, context, a, inner] { buffer.deallocate() }
    }
}
