package rocelab.scenario.lint;

import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.scenario.device.SwitchConfig;

/** The buffer arithmetic of a switch's shared-buffer model (see {@code SharedBuffer}). */
final class BufferMath {
    /** The fan-in the XOFF point is computed for: two ingress ports feeding one egress queue, the mildest incast. */
    static final int FAN_IN = 2;

    private BufferMath() {}

    /** Headroom reserved out of the buffer for every lossless priority group. */
    static long reserved(SwitchConfig s) {
        long r = 0;
        for (long h : s.headroomByPort()) {
            r += h * Integer.bitCount(s.pfc().losslessMask());
        }
        return r;
    }

    /**
     * The egress queue depth at which an incast of {@link #FAN_IN} equal ingress ports makes their priority groups
     * reach XOFF. Static: each group holds depth / fan-in, so fan-in x xoff, unless the shared pool (the buffer less
     * the headroom) fills first: then the pool's size, where the groups pause because it is full. Dynamic: depth /
     * fan-in reaches alpha x (usable - depth) at depth = fan-in x alpha x usable / (1 + fan-in x alpha).
     */
    static long xoffQueueDepth(SwitchConfig s) {
        PfcParameters pfc = s.pfc();
        if (!pfc.dynamic()) {
            return Math.min(FAN_IN * pfc.xoffBytes(), s.parameters().bufferBytes() - reserved(s));
        }
        double usable = s.parameters().bufferBytes() - reserved(s);
        double a = FAN_IN * pfc.alpha();
        return (long) (a * usable / (1 + a));
    }
}
