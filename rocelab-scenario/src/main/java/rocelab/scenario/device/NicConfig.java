package rocelab.scenario.device;

import rocelab.congestion.CcSettings;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.ReceiveParameters;

/**
 * The resolved settings of one RNIC: the scenario's {@code nic} section with every matching {@code nics} override
 * applied (what mlnx_qos, the ECN sysfs files and the DCQCN profile say on that host).
 *
 * @param host the host index
 * @param parameters MTU, transport timers, data DSCP and priority, ECN capability
 * @param trust what it classifies received frames by
 * @param dscpToPriority its DSCP-to-priority map (used with trust dscp)
 * @param pfcMask priorities with PFC enabled on the RNIC (bit p for priority p)
 * @param congestion the congestion control of the QPs it sends on
 * @param notificationPoint whether it sends CNPs for CE-marked packets (DCQCN NP, ecn/roce_np/enable)
 * @param reactionPoint whether its QPs react to CNPs (DCQCN RP, ecn/roce_rp/enable)
 * @param cnpDscp DSCP of the CNPs it sends
 * @param cnpPriority 802.1p priority of the CNPs it sends
 * @param receive its receive pipeline
 */
public record NicConfig(int host, NicParameters parameters, Trust trust, int[] dscpToPriority, int pfcMask,
        CcSettings congestion, boolean notificationPoint, boolean reactionPoint, int cnpDscp, int cnpPriority,
        ReceiveParameters receive) {

    public NicConfig {
        dscpToPriority = dscpToPriority.clone();
    }

    @Override
    public int[] dscpToPriority() {
        return dscpToPriority.clone();
    }

    /** The default DSCP-to-priority map of mlx5: priority = DSCP >> 3 (26 to 3, 48 to 6). */
    public static int[] defaultDscpToPriority() {
        int[] map = new int[64];
        for (int d = 0; d < 64; d++) {
            map[d] = d >> 3;
        }
        return map;
    }

    /**
     * The priority this RNIC files its received RoCE frames under: by DSCP with trust dscp; by the VLAN tag's PCP
     * (the sender's data priority) with trust pcp on a tagged fabric; priority 0 with trust pcp on an untagged one.
     */
    public int receivePriority(boolean vlanTagged, int senderPriority) {
        if (trust == Trust.DSCP) {
            return dscpToPriority[parameters.dataDscp()];
        }
        return vlanTagged ? senderPriority : 0;
    }

    public boolean pfcEnabled(int priority) {
        return (pfcMask & 1 << priority) != 0;
    }
}
