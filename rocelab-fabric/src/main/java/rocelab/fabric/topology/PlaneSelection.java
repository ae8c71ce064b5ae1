package rocelab.fabric.topology;

/** How a multi-plane RNIC spreads a queue pair's packets over its planes (one port per plane). */
public enum PlaneSelection {
    /**
     * Each QP on one plane: plane {@code QP number mod P}, or the next plane that still reaches the destination when
     * that one does not. A QP's packets stay in order; one QP gets at most one plane's rate.
     */
    PER_QP("per-qp"),
    /**
     * Every packet on the next free port in turn (among the planes that reach the destination): a QP can use the
     * RNIC's whole rate, and its packets arrive out of order when the planes' delays differ (needs {@code nic.ooo}).
     */
    SPRAY("spray");

    private final String key;

    PlaneSelection(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public static PlaneSelection fromKey(String key) {
        for (PlaneSelection s : values()) {
            if (s.key.equals(key)) {
                return s;
            }
        }
        return null;
    }
}
