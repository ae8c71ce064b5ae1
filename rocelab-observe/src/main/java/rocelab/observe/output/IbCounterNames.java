package rocelab.observe.output;

import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;

/**
 * What ports.csv and nics.csv call a counter on InfiniBand: the PortCounters names perfquery prints where the model
 * has the counter (PortXmitData and PortRcvData in 4-octet words, as the hardware counts them), FECN/BECN for the
 * congestion notifications, and nothing for what does not exist there (PFC). Null: the column is left out.
 */
public final class IbCounterNames {
    /** Time the port's lanes had a packet ready that their credits did not cover, in microseconds. */
    public static final String XMIT_WAIT = "PortXmitWait_us";

    private IbCounterNames() {}

    public static String port(PortCounter c) {
        return switch (c) {
            case RX_PACKETS -> "PortRcvPkts";
            case RX_BYTES -> "PortRcvData";
            case TX_PACKETS -> "PortXmitPkts";
            case TX_BYTES -> "PortXmitData";
            case DROPPED_PACKETS -> "PortXmitDiscards";
            case ECN_MARKED -> "fecn_marked";
            // PFC, its headroom and its watchdog do not exist on InfiniBand.
            case DROPPED_HEADROOM, DROPPED_PFC_WATCHDOG, PFC_WATCHDOG_STORMS, PFC_WATCHDOG_RESTORES, PAUSE_SENT,
                    PAUSE_RECEIVED, PAUSED_PS -> null;
            default -> c.key();
        };
    }

    /** A port counter's value as the IB column holds it (data counters in 4-octet words). */
    public static long value(PortCounter c, long v) {
        return c == PortCounter.RX_BYTES || c == PortCounter.TX_BYTES ? v / 4 : v;
    }

    public static String nic(NicCounter c) {
        return switch (c) {
            case NP_CNP_SENT -> "becn_sent";
            case RP_CNP_HANDLED -> "becn_handled";
            case RP_CNP_IGNORED -> "becn_ignored";
            case NP_ECN_MARKED_ROCE_PACKETS -> "PortRcvFECN";
            case TX_PAUSE, RX_PAUSE, RX_PAUSE_DURATION_PS -> null;
            default -> c.key();
        };
    }

    /** The credit-stall time of every data lane of a port or HCA, or 0 without credit flow control. */
    public static long waitPs(CreditGate gate, long nowPs) {
        if (gate == null) {
            return 0;
        }
        long sum = 0;
        for (int vl = 0; vl < InfinibandParameters.DATA_VLS; vl++) {
            sum += gate.stallPs(vl, nowPs);
        }
        return sum;
    }
}
