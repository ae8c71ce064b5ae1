package rocelab.fabric.nic;

/**
 * The RNIC's receive pipeline: how fast it can move arriving frames into host memory (a PCIe or host bottleneck)
 * and how much it can hold meanwhile. When it is slower than the link, frames queue in its receive buffer; on a
 * lossless priority the RNIC sends PFC XOFF to its switch when the buffer reaches {@code xoffBytes} and XON when it
 * drains to {@code xonBytes}; a frame that does not fit is dropped ({@code out_of_buffer}).
 *
 * @param rateBps receive processing rate; 0 means as fast as the link (no receive queue at all)
 */
public record ReceiveParameters(long rateBps, long bufferBytes, long xoffBytes, long xonBytes) {
    public ReceiveParameters {
        if (rateBps < 0) {
            throw new IllegalArgumentException("receive rate must not be negative");
        }
        if (rateBps > 0 && (bufferBytes <= 0 || xoffBytes <= 0 || xonBytes < 0 || xonBytes > xoffBytes
                || xoffBytes > bufferBytes)) {
            throw new IllegalArgumentException("receive buffer needs 0 <= xon <= xoff <= buffer and buffer > 0");
        }
    }

    /** Receive at line rate: no receive queue, never pauses. */
    public static ReceiveParameters unlimited() {
        return new ReceiveParameters(0, 0, 0, 0);
    }

    public boolean limited() {
        return rateBps > 0;
    }

    /**
     * The text a record's generated toString() gives (name[component=value, ...], the scenario hash's input), written
     * out: the generated one is bootstrapped through method handles the first time it runs, tens of milliseconds of
     * a short run's start-up (RecordTextTest checks the two agree).
     */
    @Override
    public String toString() {
        return "ReceiveParameters[" + "rateBps=" + rateBps + ", bufferBytes=" + bufferBytes + ", xoffBytes="
                + xoffBytes + ", xonBytes=" + xonBytes + "]";
    }
}
