package rocelab.fabric.flowcontrol;

/**
 * Priority flow control (IEEE 802.1Qbb) settings of the switches: which priorities are lossless, how the
 * ingress shared-buffer threshold that triggers XOFF is computed, and how much headroom absorbs what is still
 * in flight after XOFF.
 *
 * @param losslessMask bit p set when priority p is lossless (default: 3, the RoCE priority); 0 turns PFC off
 * @param dynamic XOFF at alpha x (free shared buffer) per ingress port and priority (as ASICs do), else static
 * @param alpha the dynamic-threshold factor (1/8 in the HPCC model and common SONiC profiles)
 * @param xoffBytes static threshold: XOFF when a priority group's shared use reaches it
 * @param xonBytes static threshold: XON when it falls to it
 * @param headroomBytes headroom per ingress port and lossless priority; -1: computed per port from the link
 *     (see {@link Headroom})
 * @param resumeOffsetBytes dynamic mode hysteresis: XON when shared use + offset is at or below the threshold
 * @param pauseQuanta pause time sent with XOFF, in quanta of 512 bit times (0xFFFF, refreshed while needed)
 * @param watchdog the PFC watchdog of every switch
 * @param pauseResponsePs how long after a PFC frame arrives a switch port acts on it; -1: the IEEE 802.3 Annex 31B
 *     response time at the port's speed (see {@link Headroom#responsePs})
 */
public record PfcParameters(
        int losslessMask,
        boolean dynamic,
        double alpha,
        long xoffBytes,
        long xonBytes,
        long headroomBytes,
        long resumeOffsetBytes,
        int pauseQuanta,
        PfcWatchdogParameters watchdog,
        long pauseResponsePs) {

    public PfcParameters {
        if ((losslessMask & ~0xff) != 0) {
            throw new IllegalArgumentException("lossless priorities are 0..7");
        }
        if (!(alpha > 0 && alpha <= 64)) {
            throw new IllegalArgumentException("alpha must be in (0, 64], got " + alpha);
        }
        if (!dynamic && (xoffBytes <= 0 || xonBytes < 0 || xonBytes > xoffBytes)) {
            throw new IllegalArgumentException("static thresholds need 0 <= xon <= xoff and xoff > 0");
        }
        if (pauseQuanta < 1 || pauseQuanta > 0xFFFF) {
            throw new IllegalArgumentException("pause quanta must be 1..65535");
        }
        if (pauseResponsePs < -1) {
            throw new IllegalArgumentException("pause response must not be negative");
        }
    }

    /** With the 802.3 response time. */
    public PfcParameters(int losslessMask, boolean dynamic, double alpha, long xoffBytes, long xonBytes,
            long headroomBytes, long resumeOffsetBytes, int pauseQuanta, PfcWatchdogParameters watchdog) {
        this(losslessMask, dynamic, alpha, xoffBytes, xonBytes, headroomBytes, resumeOffsetBytes, pauseQuanta,
                watchdog, -1);
    }

    /** PFC on priority 3, dynamic threshold alpha 1/8, headroom from each link, 3 KiB resume offset. */
    public static PfcParameters defaults() {
        return new PfcParameters(1 << 3, true, 0.125, 0, 0, -1, 3 * 1024, 0xFFFF, PfcWatchdogParameters.off());
    }

    /** No lossless priority: every priority tail-drops. */
    public static PfcParameters off() {
        return new PfcParameters(0, true, 0.125, 0, 0, -1, 3 * 1024, 0xFFFF, PfcWatchdogParameters.off());
    }

    public boolean isLossless(int priority) {
        return (losslessMask & (1 << priority)) != 0;
    }

    public boolean enabled() {
        return losslessMask != 0;
    }

    /**
     * The text a record's generated toString() gives (name[component=value, ...], the scenario hash's input), written
     * out: the generated one is bootstrapped through method handles the first time it runs, tens of milliseconds of
     * a short run's start-up (RecordTextTest checks the two agree).
     */
    @Override
    public String toString() {
        return "PfcParameters[" + "losslessMask=" + losslessMask + ", dynamic=" + dynamic + ", alpha=" + alpha
                + ", xoffBytes=" + xoffBytes + ", xonBytes=" + xonBytes + ", headroomBytes=" + headroomBytes
                + ", resumeOffsetBytes=" + resumeOffsetBytes + ", pauseQuanta=" + pauseQuanta + ", watchdog="
                + watchdog + ", pauseResponsePs=" + pauseResponsePs + "]";
    }
}
