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
public record SwitchConfig(int node, String name, SwitchParameters parameters, PfcParameters pfc,
        EcnParameters[] ecnByPort, long[] headroomByPort, int[] mtuByPort, boolean overridden) {

    public SwitchConfig {
        ecnByPort = ecnByPort.clone();
        headroomByPort = headroomByPort.clone();
        mtuByPort = mtuByPort.clone();
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
        return parameters.dscpToTc()[dscp];
    }

    @Override
    public EcnParameters[] ecnByPort() {
        return ecnByPort.clone();
    }

    @Override
    public long[] headroomByPort() {
        return headroomByPort.clone();
    }

    @Override
    public int[] mtuByPort() {
        return mtuByPort.clone();
    }
}
