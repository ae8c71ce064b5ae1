package rocelab.observe.job;

/**
 * One stretch of a rank's last measured iteration, for the timeline: {@code compute} (a compute step, named) or
 * {@code comm} (the rank's own data moving while it is not computing is what shows as exposed communication).
 */
public record TimelineRecord(String job, int rank, String kind, long startPs, long endPs, String label) {}
