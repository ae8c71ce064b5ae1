package rocelab.engine;

/**
 * Something that receives object references from other partitions of a {@link PartitionedSimulator} without an
 * event per item (a link's frames in transit): the sender keeps what it sent in a list for the window's parity
 * ({@link Simulator#windowParity()}) and reports its due time ({@link Simulator#crossing}); after the window's
 * barrier, with every partition idle, the run calls {@link #drain} with that parity, and the inbox moves the items
 * into its own partition (for a link: into its FIFO, scheduling the head's arrival as one thread would).
 */
public interface CrossingInbox {
    void drain(int parity);
}
