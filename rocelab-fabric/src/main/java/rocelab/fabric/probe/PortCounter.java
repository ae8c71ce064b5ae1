package rocelab.fabric.probe;

/** Per switch port counters (both directions of the physical port), named like switch/ethtool counters. */
public enum PortCounter {
    RX_PACKETS("rx_packets"),
    RX_BYTES("rx_bytes"),
    TX_PACKETS("tx_packets"),
    TX_BYTES("tx_bytes"),
    TX_DATA_PACKETS("tx_data_packets"),
    DROPPED_PACKETS("dropped_packets"),
    DROPPED_BYTES("dropped_bytes"),
    DROPPED_BUFFER_FULL("dropped_buffer_full"),
    DROPPED_NO_ROUTE("dropped_no_route"),
    DROPPED_HEADROOM("dropped_headroom_exceeded"),
    DROPPED_PFC_WATCHDOG("dropped_pfc_watchdog"),
    DROPPED_LINK_DOWN("dropped_link_down"),
    DROPPED_OVERSIZE("dropped_oversize"),
    PFC_WATCHDOG_STORMS("pfc_wd_storms_detected"),
    PFC_WATCHDOG_RESTORES("pfc_wd_restorations"),
    ECN_MARKED("ecn_marked"),
    PAUSE_SENT("tx_pause"),
    PAUSE_RECEIVED("rx_pause"),
    PAUSED_PS("rx_pause_duration_ps");

    private final String key;

    PortCounter(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public static final int COUNT = values().length;
}
