package rocelab.fabric.nic;

/**
 * The part of a queue pair that exists only with out-of-order placement and selective repeat (both RNICs have
 * {@code nic.ooo}): its bitmaps, the ranges a selective NAK asks for and its counters. Kept out of
 * {@link QueuePair} so the go-back-N QPs of a large run neither carry nor touch it (about 100 bytes each).
 * {@link QueuePair} owns the logic; this holds its state.
 */
final class SelectiveRepeat {
    /** Most PSNs outstanding, the size of the bitmaps below. */
    final int window;
    /** Responder: PSNs beyond a gap that must arrive before the gap is taken for a loss. */
    final int reorder;
    /** Requester: PSNs to send again. */
    final PsnBitmap resend;
    /** Requester: PSNs the responder asked for (sent again on a timeout while still unacknowledged). */
    final PsnBitmap askedFor;
    int resendCount;
    /** Requester: every PSN up to this one arrived or was asked for (the responder asks for gaps in PSN order). */
    long knownThrough = -1;
    /** Responder: PSNs placed at or after the QP's expected PSN. */
    final PsnBitmap placed;
    long highestPlaced = -1;
    /** Responder: every PSN up to this one was placed or asked for. */
    long checkedThrough = -1;
    /** The range a selective NAK being sent asks for (read by the RNIC as it builds the NAK). */
    long nakCumulativePsn;
    long nakMissingToPsn = -1;
    long nakPreviousMissingToPsn = -1;

    // Per-QP transport counters (the RNIC keeps the same per port), for the journey.
    long outOfSequence;
    long duplicates;
    long selectiveRetransmissions;
    long selectiveNaks;

    SelectiveRepeat(int window, int reorder) {
        this.window = window;
        this.reorder = reorder;
        this.resend = new PsnBitmap(window);
        this.askedFor = new PsnBitmap(window);
        this.placed = new PsnBitmap(window);
    }
}
