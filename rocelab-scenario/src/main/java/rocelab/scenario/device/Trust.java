package rocelab.scenario.device;

/** What an RNIC classifies received frames by (mlnx_qos --trust): the 802.1p PCP of a VLAN tag, or the DSCP. */
public enum Trust {
    /** The PCP of the 802.1Q tag; an untagged frame has none and lands in priority 0 (the mlx5 default trust). */
    PCP("pcp"),
    /** The DSCP, through the RNIC's DSCP-to-priority map (default priority = DSCP >> 3). */
    DSCP("dscp");

    private final String key;

    Trust(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
