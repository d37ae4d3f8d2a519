/**
 * The data-access stacks of the documentation's table, each an application of its own with the
 * starter on the testkit's topology: a write through the stack, then a read through the same stack
 * under {@code @ReadYourWrites} that sees it on a replica that had not applied it yet.
 */
package io.tidemark.spring.stacks;
