package rocelab.engine;

/**
 * A handler that can read ahead what its next event will touch. The loop tells it, one event early, that an event of
 * its is next in line; it reads (never writes) the objects that event will use, so that their cache misses overlap
 * the event before instead of stalling its own. Java has no prefetch instruction: an ordinary load whose value is
 * kept is the nearest thing.
 */
public interface Prefetching extends EventHandler {
    /** The event ({@code kind}, {@code arg}) is next after the one about to run: read what it will read. */
    void prefetch(int kind, long arg);
}
