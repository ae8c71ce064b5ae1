package rocelab.scenario.device;

import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.switching.SwitchParameters;

/**
 * The resolved settings of one switch: the scenario's {@code switch} section with every matching {@code switches}
 * override applied, and its per-port values. The simulator and the lint both read these, so what is linted is
 * what is simulated.
 *
 * @param node the switch's node id in the topology
 * @param name its name (leaf0, spine1, ...)
 * @param parameters buffer, DSCP-to-TC map, scheduler, ECMP
 * @param pfc lossless priorities, thresholds, watchdog (off in roce-lossy)
 * @param ecnByPort the ECN marking of each port's egress queues
 * @param headroomByPort PFC headroom per lossless priority of each ingress port, in bytes (0 when PFC is off)
 * @param mtuByPort the IP MTU of each port (largest IP packet it accepts and sends); 0 for no limit
 * @param overridden whether any {@code switches} entry applies to this switch
 */
public final class SwitchConfig {
    private final int node;
    private final String name;
    private final SwitchParameters parameters;
    private final PfcParameters pfc;
    private final EcnParameters[] ecnByPort;
    private final long[] headroomByPort;
    private final int[] mtuByPort;
    private final boolean overridden;
    /** The DSCP map, copied once: the lint asks it for every hop of every path. */
    private final int[] dscpToTc;

    public SwitchConfig(int node, String name, SwitchParameters parameters, PfcParameters pfc,
            EcnParameters[] ecnByPort, long[] headroomByPort, int[] mtuByPort, boolean overridden) {
        this.node = node;
        this.name = name;
        this.parameters = parameters;
        this.pfc = pfc;
        this.ecnByPort = ecnByPort.clone();
        this.headroomByPort = headroomByPort.clone();
        this.mtuByPort = mtuByPort.clone();
        this.overridden = overridden;
        this.dscpToTc = parameters.dscpToTc();
    }

    public int node() {
        return node;
    }

    public String name() {
        return name;
    }

    public SwitchParameters parameters() {
        return parameters;
    }

    public PfcParameters pfc() {
        return pfc;
    }

    public boolean overridden() {
        return overridden;
    }

    public int portCount() {
        return ecnByPort.length;
    }

    public EcnParameters ecn(int port) {
        return ecnByPort[port];
    }

    public long headroom(int port) {
        return headroomByPort[port];
    }

    public int mtu(int port) {
        return mtuByPort[port];
    }

    /** The traffic class this switch gives a DSCP. */
    public int trafficClass(int dscp) {
        return dscpToTc[dscp];
    }

    public EcnParameters[] ecnByPort() {
        return ecnByPort.clone();
    }

    public long[] headroomByPort() {
        return headroomByPort.clone();
    }

    public int[] mtuByPort() {
        return mtuByPort.clone();
    }
}
