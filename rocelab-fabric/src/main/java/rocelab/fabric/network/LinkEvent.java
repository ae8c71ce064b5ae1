package rocelab.fabric.network;

/** A link going down or coming back up at a given time (both directions of topology edge {@code edgeIndex}). */
public record LinkEvent(int edgeIndex, long atPs, boolean up) {
    public LinkEvent {
        if (atPs < 0) {
            throw new IllegalArgumentException("a link event needs a time >= 0");
        }
    }
}
