/**
 * The A2L lock manager: table and attribute lock names, S/X modes, a lock
 * table with wait queues and deadlock detection. No HSQLDB dependency; the
 * fork's patches adapt HSQLDB sessions and statements to it.
 */
package org.hsqldb.a2l.lockmgr;
