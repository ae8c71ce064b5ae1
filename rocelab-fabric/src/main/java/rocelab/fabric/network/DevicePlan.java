package rocelab.fabric.network;

import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.congestion.EcnMarkingFactory;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.switching.SwitchParameters;

/**
 * The settings of each device, when they differ between devices (per switch, per port, per RNIC): what a real
 * fabric gets from each switch's config_db and each host's mlnx_qos. {@link NetworkBuilder} asks it once per device
 * at assembly; without a plan every device gets the builder's uniform settings.
 */
public interface DevicePlan {
    /** The settings of switch {@code switchIndex} (0-based among the switches). */
    SwitchSetup forSwitch(int switchIndex);

    /** The settings of the RNIC of host {@code host}. */
    NicSetup forNic(int host);

    /**
     * One switch.
     *
     * @param parameters buffer, DSCP map, scheduler, ECMP
     * @param pfc lossless priorities, thresholds, headroom rule and watchdog of this switch
     * @param markingByPort the ECN marking of each port's egress queues
     * @param headroomByPort headroom per lossless priority of each ingress port; -1 follows {@code pfc}
     * @param maxFrameByPort largest frame (FCS included) each port accepts and sends; larger frames are dropped
     *     (an L2 MTU); {@link Integer#MAX_VALUE} for no limit
     */
    record SwitchSetup(SwitchParameters parameters, PfcParameters pfc, EcnMarkingFactory[] markingByPort,
            long[] headroomByPort, int[] maxFrameByPort, boolean maxPayload) {
        /** A setup whose limits are frame sizes (RoCE: the IP MTU plus the L2 header). */
        public SwitchSetup(SwitchParameters parameters, PfcParameters pfc, EcnMarkingFactory[] markingByPort,
                long[] headroomByPort, int[] maxFrameByPort) {
            this(parameters, pfc, markingByPort, headroomByPort, maxFrameByPort, false);
        }
    }

    /**
     * One RNIC.
     *
     * @param parameters MTU, transport timers and the QoS marking of its data
     * @param pfcMask priorities on which it honours PFC frames from its switch (bit p for priority p)
     * @param receivePriority the priority it files received RoCE frames under (its trust mode decides it); its own
     *     PFC frames, when its receive buffer fills, pause this priority
     * @param notification how it sends CNPs as a notification point
     * @param congestionControl the reaction point of the QPs it sends on
     * @param receive its receive pipeline
     */
    record NicSetup(NicParameters parameters, int pfcMask, int receivePriority,
            NotificationPointParameters notification, CongestionControlFactory congestionControl,
            ReceiveParameters receive) {}
}
