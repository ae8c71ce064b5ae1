package rocelab.fabric.probe;

/** Why a device discarded a packet; every drop is counted with its reason. */
public enum DropReason {
    /** The switch's shared buffer had no room (tail drop). */
    BUFFER_FULL("buffer_full"),
    /** A lossless priority group overflowed its PFC headroom (the headroom was too small for the link). */
    HEADROOM_EXCEEDED("headroom_exceeded"),
    /** The PFC watchdog dropped a lossless queue's packets during a pause storm. */
    PFC_WATCHDOG("pfc_watchdog"),
    /** The link was down: frames on it or queued for it were lost. */
    LINK_DOWN("link_down"),
    /** The frame is larger than the port's MTU allows (a jumbo RoCE frame on a 1500-byte port). */
    OVERSIZE("oversize"),
    /** The switch has no route to the destination host. */
    NO_ROUTE("no_route");

    private final String key;

    DropReason(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
