package io.dbqueue.log;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which partitions a member should hold: the live members in id order take partitions in turn
 * (member i holds the partitions p with p mod n = i). Every member computes the same answer from
 * the same list, so they agree without talking to each other; a partition changes hands only when
 * its holder lets it go or its lease runs out.
 */
final class Assignment {

    private Assignment() {
    }

    static Set<Integer> share(List<String> liveMembers, String member, int partitions) {
        int index = liveMembers.indexOf(member);
        Set<Integer> share = new TreeSet<>();
        if (index < 0) {
            return share;
        }
        for (int p = index; p < partitions; p += liveMembers.size()) {
            share.add(p);
        }
        return share;
    }
}
