package rocelab.fabric.probe;

/** Per RNIC counters, named after the mlx5 ethtool / hw_counters names where one exists. */
public enum NicCounter {
    TX_DATA_PACKETS("tx_data_packets"),
    TX_DATA_BYTES("tx_data_bytes"),
    RETRANSMITTED_PACKETS("retransmitted_packets"),
    TX_ACKS("tx_acks"),
    TX_NAKS("tx_naks"),
    RX_DATA_PACKETS("rx_data_packets"),
    RX_DELIVERED_BYTES("rx_delivered_bytes"),
    RX_ACKS("rx_acks"),
    RX_NAKS("rx_naks"),
    OUT_OF_SEQUENCE("out_of_sequence"),
    DUPLICATE_REQUEST("duplicate_request"),
    LOCAL_ACK_TIMEOUT_ERR("local_ack_timeout_err"),
    RETRY_EXCEEDED("retry_exceeded_err"),
    NP_CNP_SENT("np_cnp_sent"),
    RP_CNP_HANDLED("rp_cnp_handled"),
    RP_CNP_IGNORED("rp_cnp_ignored"),
    NP_ECN_MARKED_ROCE_PACKETS("np_ecn_marked_roce_packets"),
    TX_PAUSE("tx_pause"),
    RX_PAUSE("rx_pause"),
    RX_PAUSE_DURATION_PS("rx_pause_duration_ps"),
    OUT_OF_BUFFER("out_of_buffer"),
    /** Out-of-order placement: data packets sent again because the receiver asked for them alone (selective repeat);
     * also counted in {@code retransmitted_packets}. */
    SELECTIVE_RETRANSMITTED("selective_retransmitted_packets"),
    /** Out-of-order placement: selective NAKs sent, each asking for one missing PSN range; also in {@code tx_naks}. */
    TX_SELECTIVE_NAKS("tx_selective_naks"),
    /** Frames the RNIC sent into a link that was down, or that were on its wire when the link went down. */
    TX_LOST_LINK_DOWN("tx_lost_link_down");

    private final String key;

    NicCounter(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public static final int COUNT = values().length;
}
