package rocelab.scenario.lint;

import rocelab.engine.Rates;
import rocelab.fabric.flowcontrol.Headroom;

/**
 * The headroom an RNIC's receive buffer needs above its XOFF threshold (a receive pipeline slower than the link,
 * {@code nic.rx}): what the switch still sends after the RNIC decides XOFF, the same terms as a switch port's
 * ({@link Headroom#bytes}: the RNIC's frame in transmission, its PFC frame, the loop, the switch's response, the frame
 * that crossed XOFF and the switch's last frame), less what the pipeline surely drains meanwhile: it is busy when the
 * RNIC decides (the buffer is past XOFF), so it finishes a frame at least every frame time from then on. Arrivals come
 * faster than it drains, so the buffer peaks when the last frame is in. An upper bound: the pipeline may be further
 * into its frame, and the RNIC may be sending an ACK rather than a full frame when it decides.
 */
final class ReceiveHeadroom {
    private ReceiveHeadroom() {}

    /**
     * Bytes above XOFF the buffer must hold.
     *
     * @param roundTripPs the PFC frame into the switch and the data back into the RNIC ({@code PauseLoop})
     * @param responsePs the switch's pause response
     */
    static long need(long rateBps, long roundTripPs, long responsePs, int frame, int framing, long rxRateBps) {
        long arriving = Headroom.bytes(rateBps, roundTripPs, responsePs, frame, framing);
        int wire = frame + framing;
        // From the decision until the switch's last frame is in: the RNIC's frame in transmission and its PFC frame,
        // the loop and the response, then that last frame.
        long windowPs = Rates.serializationPs(2L * wire + Headroom.PFC_FRAME_WIRE_BYTES, rateBps) + roundTripPs
                + responsePs;
        long drained = windowPs / Rates.serializationPs(wire, rxRateBps);
        return Math.max(frame, arriving - drained * frame);
    }
}
