"""The question and the answer: a hold'em spot (hero, board, named hands, dead cards), the
flattened seat arrays the kernels read, and the one equity result type."""
