package rocelab.fabric.packet;

/** InfiniBand BTH opcodes of the Reliable Connected transport used by RoCEv2 (IBTA Vol. 1, Table 38). */
public final class Opcodes {
    public static final int SEND_FIRST = 0x00;
    public static final int SEND_MIDDLE = 0x01;
    public static final int SEND_LAST = 0x02;
    public static final int SEND_ONLY = 0x04;
    public static final int RDMA_WRITE_FIRST = 0x06;
    public static final int RDMA_WRITE_MIDDLE = 0x07;
    public static final int RDMA_WRITE_LAST = 0x08;
    public static final int RDMA_WRITE_ONLY = 0x0A;
    public static final int ACKNOWLEDGE = 0x11;
    public static final int CNP = 0x81;
    /**
     * InfiniBand's own CNP (IBTA Vol. 1 Table 38 and Annex A10.3.2; Linux {@code IB_OPCODE_CNP}): a BTH with BECN set
     * and nothing after it. RoCEv2's CNP ({@link #CNP}, Annex A17) is another opcode with 16 reserved bytes.
     */
    public static final int IB_CNP = 0x80;

    /** AETH syndrome of a positive ACK without credit information. */
    public static final int AETH_ACK = 0x1F;
    /** AETH syndrome of a NAK, PSN sequence error. */
    public static final int AETH_NAK_PSN_SEQUENCE_ERROR = 0x60;

    private Opcodes() {}

    /** Whether a data packet with this opcode carries a RETH (first or only packet of an RDMA WRITE). */
    public static boolean hasReth(int opcode) {
        return opcode == RDMA_WRITE_FIRST || opcode == RDMA_WRITE_ONLY;
    }

    public static boolean isLast(int opcode) {
        return opcode == RDMA_WRITE_LAST || opcode == RDMA_WRITE_ONLY || opcode == SEND_LAST || opcode == SEND_ONLY;
    }
}
