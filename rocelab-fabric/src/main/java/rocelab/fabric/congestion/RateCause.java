package rocelab.fabric.congestion;

/**
 * Why a congestion control changed a queue pair's rate or window, with what the two detail numbers of
 * {@link RateListener#onRateChange} mean for each cause. One vocabulary for every algorithm, so a journey can tell
 * any of them; {@link #family()} says which mechanism the cause belongs to.
 */
public enum RateCause {
    /** A CNP (or BECN / flagged ACK) cut the rate at once; value: the notification's number for its QP. */
    CNP("CNP", "notification"),
    /** DCQCN (NVIDIA, HPCC ns-3): the rate-decrease period ended with notifications in it; value: the last one's number. */
    CNP_PERIOD("CNP, cut at the end of the rate-decrease period", "notification"),
    /** DCQCN rate-increase timer, fast recovery; index: the timer stage reached. */
    TIMER_FAST_RECOVERY("rate-increase timer (fast recovery, stage %d)", "timer"),
    TIMER_ADDITIVE("rate-increase timer (additive increase, stage %d)", "timer"),
    TIMER_HYPER("rate-increase timer (hyper increase, stage %d)", "timer"),
    /** DCQCN byte counter; index: the byte-counter stage reached. */
    BYTES_FAST_RECOVERY("byte counter (fast recovery, stage %d)", "bytes"),
    BYTES_ADDITIVE("byte counter (additive increase, stage %d)", "bytes"),
    BYTES_HYPER("byte counter (hyper increase, stage %d)", "bytes"),
    /**
     * HPCC in-band telemetry; value: the smoothed utilisation in parts per million; index: the most loaded hop, the
     * INT record's place on the packet's way from 0 (the text counts the switches from 1).
     */
    INT_MULTIPLICATIVE("HPCC INT feedback (utilisation %s at switch %d of its way: multiplicative)", "telemetry"),
    INT_ADDITIVE("HPCC INT feedback (utilisation %s at switch %d of its way: additive step)", "telemetry"),
    /** TIMELY; value: the RTT sample in ps (gradient causes: the normalised gradient in parts per million). */
    RTT_LOW("TIMELY RTT %s below T_low", "rtt"),
    RTT_HIGH("TIMELY RTT %s above T_high", "rtt"),
    RTT_GRADIENT_FALLING("TIMELY RTT gradient %s (not rising)", "rtt"),
    RTT_GRADIENT_RISING("TIMELY RTT gradient %s (rising)", "rtt"),
    /** DCTCP: an ECN echo cut the window; value: alpha in parts per million. */
    ECN_ECHO("DCTCP ECN echo (alpha %s)", "ecn-echo"),
    /**
     * DCTCP: a window of data was acknowledged outside a CWR period. Not "without marks": echoes that came while the
     * last cut's CWR period lasted cut nothing, and the window they fell in still grows.
     */
    WINDOW_GROWTH("DCTCP window of data acknowledged outside a CWR period (additive step)", "window"),
    /**
     * An RTT sample moved the window or the pacing rate, rarely both (value: the RTT in ps): the first sets the window
     * of DCTCP, Swift and HPCC (the rate stays at line rate); a lower one, the base RTT T, moves HPCC's window R x T
     * and DCTCP's pacing W / T; Swift's smoothed RTT moves its pacing below one packet.
     */
    RTT_SAMPLE("RTT sample %s sets the window or the pacing rate", "rtt-sample"),
    /** Swift; value: the delay sample in ps. */
    DELAY_BELOW_TARGET("Swift delay %s below target", "delay"),
    DELAY_ABOVE_TARGET("Swift delay %s above target", "delay"),
    /** A loss (NAK or timeout) cut the window; index: retransmissions in a row. */
    LOSS("loss (NAK or ACK timeout, %d in a row)", "loss"),
    /** InfiniBand CC: a BECN raised the table index; value: the notification's number; index: the new CCTI. */
    BECN("BECN", "notification"),
    /** InfiniBand CC: the CCTI timer lowered the index; index: the new CCTI. */
    CCT_TIMER("CCTI timer (index %d)", "timer"),
    /**
     * InfiniBand CC: the same injection delay now follows a packet of another size, so the rate it allows changes
     * though the delay does not; index: the CCTI.
     */
    PACKET_SIZE("the same injection delay (CCTI %d) after a packet of another size: the delay is unchanged, the rate"
            + " it allows is not", "packet-size");

    private final String text;
    private final String family;

    RateCause(String text, String family) {
        this.text = text;
        this.family = family;
    }

    /** The words a journey uses; {@code %s} stands for the formatted value, {@code %d} for the index. */
    public String text() {
        return text;
    }

    /** The mechanism: notification, timer, bytes, telemetry, rtt, ecn-echo, window, rtt-sample, delay, loss, packet-size. */
    public String family() {
        return family;
    }

    /** Whether this cause is a congestion notification (its value is the notification's number). */
    public boolean isNotification() {
        return family.equals("notification");
    }
}
