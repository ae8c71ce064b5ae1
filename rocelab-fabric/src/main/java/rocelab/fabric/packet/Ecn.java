package rocelab.fabric.packet;

/** The two ECN bits of the IPv4 ToS byte (RFC 3168). */
public enum Ecn {
    NOT_ECT(0),
    ECT_1(1),
    ECT_0(2),
    CE(3);

    private final int codepoint;

    Ecn(int codepoint) {
        this.codepoint = codepoint;
    }

    public int codepoint() {
        return codepoint;
    }

    public boolean isCapable() {
        return this != NOT_ECT;
    }
}
